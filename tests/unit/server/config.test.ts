import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/config';

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

  it('refuses a short administrator password', () => {
    expect(() => loadConfig({ LOCUS_ADMIN_PASSWORD: 'short' })).toThrow(/LOCUS_ADMIN_PASSWORD: must be at least 12 characters/);
  });
});
