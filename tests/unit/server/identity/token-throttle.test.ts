import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../../server/db/database';
import { TOKEN_REQUESTS_PER_MINUTE } from '../../../../server/identity/token-throttle';
import { CLIENT_ID, form, freshDatabase, HOST, seedUser, signIn, startApp, testConfig } from './helpers';

// Issue 30 (Edges): the token endpoint had no rate limit while sign-in had one. It now counts token requests per
// client and address (the address as TRUST_PROXY allows) and answers 429 with Retry-After over the limit.
const now = { t: new Date('2026-11-28T12:00:00Z').getTime() };
const clock = { now: () => new Date(now.t) };

describe('the token endpoint rate limit', () => {
  let database: Database;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = await freshDatabase();
    // One trusted proxy (the loopback inject comes from): X-Forwarded-For names the client.
    app = await startApp(database, { clock, config: testConfig({ TRUST_PROXY: '127.0.0.1' }) });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const token = (from: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/oidc/token',
      remoteAddress: '127.0.0.1',
      headers: { host: HOST, 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': from, ...headers },
      payload: form(body),
    });
  const guess = (from: string, clientId = CLIENT_ID) => token(from, { client_id: clientId, grant_type: 'refresh_token', refresh_token: 'guessed' });

  it('still issues tokens (the provider reads the same body)', async () => {
    const user = await seedUser(database.db, { email: 'tokens@lab.test' });
    const { tokens } = await signIn(app, user);
    const refreshed = await token('192.0.2.50', { client_id: CLIENT_ID, grant_type: 'refresh_token', refresh_token: tokens.refresh_token! });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    expect(refreshed.json()).toHaveProperty('access_token');
  });

  it('refuses a client at one address over the limit until the window ends, and no other client or address', async () => {
    for (let i = 0; i < TOKEN_REQUESTS_PER_MINUTE; i++) expect((await guess('203.0.113.7')).statusCode).toBe(400);
    const held = await guess('203.0.113.7');
    expect(held.statusCode).toBe(429);
    expect(held.headers['retry-after']).toBe('60');
    expect(held.json()).toMatchObject({ error: 'too_many_requests' });
    // Another address, and another client at the same address, are counted apart.
    expect((await guess('203.0.113.8')).statusCode).toBe(400);
    expect((await guess('203.0.113.7', 'another-client')).statusCode).not.toBe(429);
    now.t += 61_000;
    expect((await guess('203.0.113.7')).statusCode).toBe(400);
  });
});

describe('the token endpoint rate limit without a trusted proxy', () => {
  it('counts by the peer address: X-Forwarded-For cannot escape it', async () => {
    const database = await freshDatabase();
    const app = await startApp(database, { clock });
    try {
      const guess = (forwardedFor: string) =>
        app.inject({
          method: 'POST',
          url: '/oidc/token',
          remoteAddress: '198.51.100.20',
          headers: { host: HOST, 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': forwardedFor },
          payload: form({ client_id: CLIENT_ID, grant_type: 'refresh_token', refresh_token: 'guessed' }),
        });
      for (let i = 0; i < TOKEN_REQUESTS_PER_MINUTE; i++) await guess(`203.0.113.${i}`);
      expect((await guess('203.0.113.250')).statusCode).toBe(429);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
