import { describe, expect, it } from 'vitest';
import { fakeApi } from './fake-api';

describe('bearer token middleware', () => {
  it('sends the current access token on every call', async () => {
    const api = fakeApi();
    await api.client.GET('/api/cases');
    expect(api.last().headers.get('Authorization')).toBe('Bearer token-123');
  });

  it('reads the token afresh for each call, so a silently renewed token is used at once', async () => {
    let token = 'first';
    const api = fakeApi(undefined, { getAccessToken: () => token });
    await api.client.GET('/api/cases');
    token = 'renewed';
    await api.client.GET('/api/cases');
    expect(api.requests.map((r) => r.headers.get('Authorization'))).toEqual(['Bearer first', 'Bearer renewed']);
  });

  it('sends no Authorization header when there is no token', async () => {
    const api = fakeApi(undefined, { getAccessToken: () => undefined });
    await api.client.GET('/api/cases');
    expect(api.last().headers.has('Authorization')).toBe(false);
  });
});
