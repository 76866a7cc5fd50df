import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../../server/clock';
import type { Database } from '../../../../server/db/database';
import { HttpError } from '../../../../server/http/errors';
import { createRemoteVerifier } from '../../../../server/identity/verify-token';
import { freshDatabase, getMe, PUBLIC_URL, seedUser, startApp, testConfig } from './helpers';

const AUDIENCE = 'api://locus';

/** A stand-in external provider: a discovery document and a JWKS on a local port. */
async function fakeProvider(jwk: JWK) {
  const hits: string[] = [];
  let issuer = '';
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.setHeader('content-type', 'application/json');
    if (req.url === '/realms/lab/.well-known/openid-configuration') {
      res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/protocol/certs` }));
    } else if (req.url === '/realms/lab/protocol/certs') {
      res.end(JSON.stringify({ keys: [jwk] }));
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/realms/lab`;
  return { issuer, hits, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('external identity provider', () => {
  let database: Database;
  let app: FastifyInstance;
  let provider: Awaited<ReturnType<typeof fakeProvider>>;
  let privateKey: CryptoKey;

  const mint = (claims: Record<string, unknown>, issuer = provider.issuer) =>
    new SignJWT({ scope: 'openid access', ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'ext-key' })
      .setIssuer(issuer)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    privateKey = pair.privateKey;
    provider = await fakeProvider({ ...(await exportJWK(pair.publicKey)), kid: 'ext-key', alg: 'RS256', use: 'sig' });
    database = await freshDatabase();
    app = await startApp(database, {
      config: testConfig({ OIDC_ISSUER: provider.issuer, OIDC_CLIENT_ID: 'locus', OIDC_AUDIENCE: AUDIENCE }),
    });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    await provider.close();
  });

  it('mounts no embedded provider and fetches nothing before the first token', async () => {
    const discovery = await app.inject({ url: '/oidc/.well-known/openid-configuration' });
    expect(discovery.statusCode).toBe(404);
    expect(provider.hits).toEqual([]);
  });

  it("accepts the provider's token for the configured audience and binds the subject by e-mail", async () => {
    const user = await seedUser(database.db);
    const token = await mint({ sub: 'ext-subject-1', email: user.email, aud: AUDIENCE });
    const me = await getMe(app, token);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: user.id });
    expect(provider.hits).toContain('/realms/lab/.well-known/openid-configuration');
    // Bound now: the subject alone finds the user.
    expect((await getMe(app, await mint({ sub: 'ext-subject-1', aud: AUDIENCE }))).statusCode).toBe(200);
  });

  it('refuses a token for another audience, from another issuer, or without the access scope', async () => {
    const user = await seedUser(database.db);
    expect((await getMe(app, await mint({ sub: 'x', email: user.email, aud: 'api://other' }))).statusCode).toBe(401);
    expect((await getMe(app, await mint({ sub: 'x', email: user.email, aud: AUDIENCE }, `${PUBLIC_URL}/oidc`))).statusCode).toBe(401);
    expect((await getMe(app, await mint({ sub: 'x', email: user.email, aud: AUDIENCE, scope: 'openid' }))).statusCode).toBe(401);
  });

  it("takes the provider's client-credentials token as the service client its client id names (issue 32), until it is revoked", async () => {
    const admin = await seedUser(database.db, { isAdmin: true, scope: 'All' });
    const adminToken = await mint({ sub: 'ext-admin', email: admin.email, aud: AUDIENCE });
    const headers = (token: string) => ({ authorization: `Bearer ${token}` });
    const created = await app.inject({ method: 'POST', url: '/api/service-clients', headers: headers(adminToken), payload: { name: 'State index', externalClientId: 'sdis-a' } });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ clientId: 'sdis-a', clientSecret: null, hasSecret: false });
    // Keycloak's shape: the service account's own subject, the client in azp.
    const service = await mint({ sub: 'service-account-uuid', azp: 'sdis-a', aud: AUDIENCE });
    expect((await app.inject({ url: '/api/network/instance', headers: headers(service) })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/cases', headers: headers(service) })).statusCode).toBe(403);
    const missing = await app.inject({ method: 'POST', url: '/api/service-clients', headers: headers(adminToken), payload: { name: 'No id' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe('Name the client id your identity provider issued for this client');
    await app.inject({ method: 'POST', url: `/api/service-clients/${created.json().id as string}/revoke`, headers: headers(adminToken) });
    expect((await app.inject({ url: '/api/network/instance', headers: headers(service) })).statusCode).toBe(401);
  });

  it('verifier: reads sub, email, iat and the scopes (scope string or scp array)', async () => {
    const verifier = createRemoteVerifier({ issuer: provider.issuer, audience: AUDIENCE, clock: systemClock });
    const token = await mint({ sub: 'abc', email: 'a@b.org', aud: AUDIENCE, scope: undefined, scp: ['access', 'read'] });
    const verified = await verifier.verify(token);
    expect(verified.subject).toBe('abc');
    expect(verified.email).toBe('a@b.org');
    expect(verified.scopes).toEqual(['access', 'read']);
    expect(verified.issuedAt).toBeInstanceOf(Date);
  });

  it('verifier: an unreachable provider gives 401, not 500, and is retried later', async () => {
    const verifier = createRemoteVerifier({ issuer: 'http://127.0.0.1:9/nowhere', audience: AUDIENCE, clock: systemClock });
    const token = await mint({ sub: 'abc', aud: AUDIENCE });
    for (let i = 0; i < 2; i += 1) {
      const err = await verifier.verify(token).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HttpError);
      expect((err as HttpError).statusCode).toBe(401);
    }
  });
});
