import { describe, expect, it } from 'vitest';
import { ConfigError, fastifyTrustProxy, loadConfig } from '../../../server/config';

describe('configuration', () => {
  it('starts on the embedded defaults: port 8080, ./data, PGlite, embedded provider', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.dataDir).toBe('./data');
    expect(c.databaseUrl).toBeUndefined();
    expect(c.identity).toMatchObject({ kind: 'embedded', issuer: 'http://localhost:8080/oidc', clientId: 'locus-spa' });
    expect(c.demo).toBe(true);
  });

  it('names the bad variable in its message', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL: must start with postgres/);
  });

  it('requires the three external provider variables together', () => {
    expect(() => loadConfig({ OIDC_ISSUER: 'https://id.example.org' })).toThrow(/OIDC_CLIENT_ID.*\n.*OIDC_AUDIENCE/s);
    const c = loadConfig({ OIDC_ISSUER: 'https://id.example.org/realms/lab', OIDC_CLIENT_ID: 'locus', OIDC_AUDIENCE: 'locus-api' });
    expect(c.identity).toEqual({ kind: 'external', issuer: 'https://id.example.org/realms/lab', clientId: 'locus', audience: 'locus-api' });
  });

  it('refuses demo mode in production and has it off there by default', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', LOCUS_DEMO: 'true' })).toThrow(/LOCUS_DEMO: demo mode is refused when NODE_ENV=production/);
    expect(loadConfig({ NODE_ENV: 'production' }).demo).toBe(false);
  });

  it('trusts no proxy unless TRUST_PROXY names them, by hop count or address list', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    // Fastify takes a bare number for "trust nobody": the hop count goes to it as a function of the hop.
    const twoHops = fastifyTrustProxy(2) as (address: string, hop: number) => boolean;
    expect([0, 1, 2].map((hop) => twoHops('10.0.0.1', hop))).toEqual([true, true, false]);
    expect(fastifyTrustProxy(false)).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.1.0.0/16,fd00::/8, loopback' }).trustProxy).toEqual(['10.0.0.1', '10.1.0.0/16', 'fd00::/8', 'loopback']);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: must be a hop count or a comma list of addresses or CIDRs \(not true\)/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
  });

  it('refuses an access token lifetime under 60 seconds', () => {
    expect(() => loadConfig({ ACCESS_TOKEN_TTL: '59' })).toThrow(/ACCESS_TOKEN_TTL: must be at least 60 seconds/);
    expect(loadConfig({ ACCESS_TOKEN_TTL: '60' }).identity).toMatchObject({ accessTokenTtl: 60 });
  });

  it('refuses a short administrator password', () => {
    expect(() => loadConfig({ LOCUS_ADMIN_PASSWORD: 'short' })).toThrow(/LOCUS_ADMIN_PASSWORD: must be at least 12 characters/);
  });
});
