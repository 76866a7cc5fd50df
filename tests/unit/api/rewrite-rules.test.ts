import { describe, expect, it } from 'vitest';
import { REWRITE_RULES, rewritePath, type RewriteRule } from '../../../src/api/middleware/rewrite-rules';
import { fakeApi } from './fake-api';

const ORG = '3f2504e0-4f89-11d3-9a0c-0305e82c3301';

describe('the one rewrite rule of spec 7.1', () => {
  it('there is exactly one rule', () => {
    expect(REWRITE_RULES).toHaveLength(1);
  });

  it.each(['POST', 'PUT', 'DELETE'] as const)('%s organizations/{id}/profiles… goes to profiles…', async (method) => {
    const api = fakeApi();
    await api.client[method]('/api/organizations/{id}/profiles/{profileId}', {
      params: { path: { id: ORG, profileId: 'p1' } },
      body: { comments: 'ok' },
    });
    expect(api.path()).toBe('/api/profiles/p1');
    expect(await api.last().json()).toEqual({ comments: 'ok' });
  });

  it('also rewrites the collection itself', async () => {
    const api = fakeApi();
    await api.client.POST('/api/organizations/{id}/profiles', { params: { path: { id: ORG } }, body: [] });
    expect(api.path()).toBe('/api/profiles');
  });

  it('does not rewrite reads', async () => {
    const api = fakeApi();
    await api.client.GET('/api/organizations/{id}/profiles', { params: { path: { id: ORG } } });
    expect(api.path()).toBe(`/api/organizations/${ORG}/profiles`);
  });

  it('does not touch look-alike paths', () => {
    expect(rewritePath('POST', `/api/organizations/${ORG}/profiles-archive`)).toBe(`/api/organizations/${ORG}/profiles-archive`);
    expect(rewritePath('POST', `/api/organizations/${ORG}/users`)).toBe(`/api/organizations/${ORG}/users`);
  });

  it('throws, naming the rules, when more than one rule matches', async () => {
    const overlapping: RewriteRule[] = [
      ...REWRITE_RULES,
      { name: 'second rule', methods: ['POST'], pattern: /\/profiles$/, replacement: '/samples' },
    ];
    expect(() => rewritePath('POST', `/api/organizations/${ORG}/profiles`, overlapping)).toThrow(
      /More than one rewrite rule matches POST .*: organization profiles are written through \/profiles; second rule/,
    );
    const api = fakeApi(undefined, { rewriteRules: overlapping });
    await expect(api.client.POST('/api/organizations/{id}/profiles', { params: { path: { id: ORG } }, body: [] })).rejects.toThrow(
      /More than one rewrite rule/,
    );
    expect(api.requests).toHaveLength(0);
  });
});
