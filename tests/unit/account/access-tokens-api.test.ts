import { describe, expect, it } from 'vitest';
import { curlExample, newestFirst, tokenStatus } from '../../../src/account/access-tokens-api';

const NOW = new Date('2025-06-01T12:00:00Z');
const token = (over: { createdAt?: string; expiresAt?: string; revokedAt?: string | null }) => ({
  id: '11111111-1111-4111-8111-111111111111',
  name: 'LIMS',
  prefix: 'lpat_abcd',
  createdAt: over.createdAt ?? '2025-05-01T00:00:00.000Z',
  expiresAt: over.expiresAt ?? '2025-07-01T00:00:00.000Z',
  lastUsedAt: null,
  revokedAt: over.revokedAt ?? null,
});

describe('personal access tokens as the page shows them (issue 18)', () => {
  it('is Active until it expires, then Expired; Revoked wins over both', () => {
    expect(tokenStatus(token({}), NOW)).toBe('Active');
    expect(tokenStatus(token({ expiresAt: '2025-06-01T12:00:00.000Z' }), NOW)).toBe('Expired');
    expect(tokenStatus(token({ expiresAt: '2025-05-31T00:00:00.000Z' }), NOW)).toBe('Expired');
    expect(tokenStatus(token({ revokedAt: '2025-05-20T00:00:00.000Z' }), NOW)).toBe('Revoked');
    expect(tokenStatus(token({ revokedAt: '2025-05-20T00:00:00.000Z', expiresAt: '2025-05-31T00:00:00.000Z' }), NOW)).toBe('Revoked');
  });

  it('lists the newest first', () => {
    const old = token({ createdAt: '2025-01-01T00:00:00.000Z' });
    const recent = { ...token({ createdAt: '2025-05-01T00:00:00.000Z' }), name: 'Recent' };
    expect(newestFirst([old, recent]).map((t) => t.name)).toEqual(['Recent', 'LIMS']);
  });

  it('builds the curl line for the chosen organization', () => {
    expect(curlExample('lpat_secret', 'https://locus.example.org', 'all')).toBe('curl -H "Authorization: Bearer lpat_secret" https://locus.example.org/api/organizations/all/hits');
  });
});
