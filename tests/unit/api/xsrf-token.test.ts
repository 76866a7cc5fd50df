import { describe, expect, it } from 'vitest';
import { readCookie } from '../../../src/api/middleware/xsrf-token';
import { fakeApi } from './fake-api';

const cookies = () => 'theme=dark; XSRF-TOKEN=abc%2B123; other=1';

describe('XSRF middleware (spec 9: cookie XSRF-TOKEN, header X-XSRF-TOKEN)', () => {
  it('echoes the XSRF-TOKEN cookie in X-XSRF-TOKEN on writes', async () => {
    const api = fakeApi(undefined, { readCookies: cookies });
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      await api.client[method]('/api/cases', { body: {} });
      expect(api.last().headers.get('X-XSRF-TOKEN')).toBe('abc+123');
    }
  });

  it('leaves reads alone', async () => {
    const api = fakeApi(undefined, { readCookies: cookies });
    await api.client.GET('/api/cases');
    expect(api.last().headers.has('X-XSRF-TOKEN')).toBe(false);
  });

  it('sends nothing when the cookie is absent', async () => {
    const api = fakeApi(undefined, { readCookies: () => 'theme=dark' });
    await api.client.POST('/api/cases', { body: {} });
    expect(api.last().headers.has('X-XSRF-TOKEN')).toBe(false);
  });

  it('reads a cookie by exact name', () => {
    expect(readCookie('A-XSRF-TOKEN=no; XSRF-TOKEN=yes', 'XSRF-TOKEN')).toBe('yes');
    expect(readCookie('', 'XSRF-TOKEN')).toBeUndefined();
  });
});
