import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../../server/db/database';
import { auditLog, serviceClients } from '../../../../server/db/schema';
import { decodeJwt, freshDatabase, HOST, seedUser, signIn, startApp } from './helpers';

/** The client-credentials grant at the embedded provider's token endpoint, the client authenticated with HTTP Basic. */
function clientCredentials(app: FastifyInstance, clientId: string, secret: string) {
  return app.inject({
    method: 'POST',
    url: '/oidc/token',
    headers: {
      host: HOST,
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
    },
    payload: 'grant_type=client_credentials&scope=access',
  });
}

const api = (app: FastifyInstance, token: string, url: string, method: 'GET' | 'POST' = 'GET', payload?: unknown) =>
  app.inject({ method, url, headers: { host: HOST, authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload: payload as object }) });

describe('service clients (OAuth 2 client credentials, issue 32)', () => {
  let database: Database;
  let app: FastifyInstance;
  let adminToken: string;
  let created: { id: string; clientId: string; clientSecret: string };

  beforeAll(async () => {
    database = await freshDatabase();
    app = await startApp(database);
    const admin = await seedUser(database.db, { isAdmin: true, scope: 'All' });
    adminToken = (await signIn(app, admin)).tokens.access_token;
    const res = await api(app, adminToken, '/api/service-clients', 'POST', { name: 'State index' });
    expect(res.statusCode).toBe(201);
    created = res.json();
  }, 60_000);
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('shows the secret once: the list answers no secret, and the database keeps only its hash', async () => {
    expect(created.clientSecret).toMatch(/^locus_cs_/);
    const list = await api(app, adminToken, '/api/service-clients');
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(created.clientSecret);
    expect(list.json().items).toEqual([expect.objectContaining({ name: 'State index', clientId: created.clientId, revokedAt: null, hasSecret: true })]);
    const [row] = await database.db.select().from(serviceClients).where(eq(serviceClients.id, created.id));
    expect(JSON.stringify(row)).not.toContain(created.clientSecret);
  });

  it('issues a token for the client id and secret, which the API accepts as the service client', async () => {
    const token = await clientCredentials(app, created.clientId, created.clientSecret);
    expect(token.statusCode).toBe(200);
    const accessToken = token.json().access_token as string;
    expect(decodeJwt(accessToken).payload).toMatchObject({ sub: created.clientId, client_id: created.clientId });
    const instance = await api(app, accessToken, '/api/network/instance');
    expect(instance.statusCode).toBe(200);
    expect(instance.json()).toEqual({ name: '', level: 'Local' });
  });

  it('gives the service client nothing a person has: no cases, no profile, no administration', async () => {
    const accessToken = (await clientCredentials(app, created.clientId, created.clientSecret)).json().access_token as string;
    for (const url of ['/api/me', '/api/cases', '/api/service-clients', '/api/network/settings', '/api/organizations']) {
      expect((await api(app, accessToken, url)).statusCode, url).toBe(403);
    }
  });

  it('refuses a wrong secret (401 invalid_client) and an unknown client', async () => {
    const wrong = await clientCredentials(app, created.clientId, `${created.clientSecret}x`);
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toBe('invalid_client');
    expect((await clientCredentials(app, 'locus_svc_nobody', created.clientSecret)).statusCode).toBe(401);
  });

  it('refuses a person who is not an administrator with scope All', async () => {
    const analyst = await seedUser(database.db, { isAdmin: true, scope: 'Organization' });
    const token = (await signIn(app, analyst)).tokens.access_token;
    expect((await api(app, token, '/api/service-clients', 'POST', { name: 'Sneaky' })).statusCode).toBe(403);
    expect((await api(app, token, '/api/service-clients')).statusCode).toBe(403);
  });

  it('refuses a bad name with a clear message, and a second client of the same name', async () => {
    const blank = await api(app, adminToken, '/api/service-clients', 'POST', { name: '  ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.body).toContain('Give the client a name');
    const again = await api(app, adminToken, '/api/service-clients', 'POST', { name: 'state INDEX' });
    expect(again.statusCode).toBe(409);
  });

  it('revokes: the token already issued is refused at once, and no new one is issued', async () => {
    const res = await api(app, adminToken, '/api/service-clients', 'POST', { name: 'Short-lived' });
    const client = res.json() as typeof created;
    const accessToken = (await clientCredentials(app, client.clientId, client.clientSecret)).json().access_token as string;
    expect((await api(app, accessToken, '/api/network/instance')).statusCode).toBe(200);

    const revoked = await api(app, adminToken, `/api/service-clients/${client.id}/revoke`, 'POST');
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().revokedAt).not.toBeNull();
    const refused = await api(app, accessToken, '/api/network/instance');
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error).toBe('This service client was revoked');
    expect((await clientCredentials(app, client.clientId, client.clientSecret)).statusCode).toBe(401);

    const trail = await database.db.select().from(auditLog).where(eq(auditLog.entityId, client.id));
    expect(trail.map((r) => r.action)).toEqual(['Created', 'Revoked']);
    expect(trail.every((r) => r.entity === 'ServiceClient')).toBe(true);
    expect(JSON.stringify(trail)).not.toContain(client.clientSecret);
  });
});
