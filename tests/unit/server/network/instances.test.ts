import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../server/app';
import type { Database } from '../../../../server/db/database';
import { auditLog, instanceSettings, serviceClients } from '../../../../server/db/schema';
import { newClientCredentials } from '../../../../server/identity/service-clients';
import { createTestApp, testConfig, type TestApp } from '../../../helpers/app';
import { freshPglite } from '../../../helpers/database';
import { createAccessGroup, createUser } from '../../../helpers/factories';
import { freePort } from '../../../helpers/free-port';

/** An administrator with scope All's token on a test app (tokens of the fake verifier). */
async function adminToken(t: TestApp, scope: 'All' | 'Organization' = 'All'): Promise<string> {
  const group = await createAccessGroup(t.database.db, { isAdmin: true });
  const user = await createUser(t.database.db, { scope, accessGroupId: group.id, organizationIds: [] });
  return t.verifier.issue(user.id);
}

const call = (t: TestApp, token: string, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });

describe('this instance and its upper instance (issue 32): two instances on two ports', () => {
  let upperDb: Database;
  let upper: FastifyInstance;
  let upperUrl: string;
  let lower: TestApp;
  let admin: string;
  let credentials: { clientId: string; secret: string };
  let notLocus: Server;
  let notLocusUrl: string;

  beforeAll(async () => {
    // The upper instance: the real embedded provider, listening, its PUBLIC_URL its own address (the issuer lives under it).
    const port = await freePort();
    upperUrl = `http://127.0.0.1:${port}`;
    upperDb = await freshPglite();
    upper = await buildApp({ database: upperDb, config: testConfig({ PUBLIC_URL: upperUrl }) });
    await upper.listen({ port, host: '127.0.0.1' });
    await upperDb.db.insert(instanceSettings).values({ id: 'instance', name: 'State DNA index', level: 'State' });
    const made = newClientCredentials();
    await upperDb.db.insert(serviceClients).values({ name: 'Local lab A', clientId: made.clientId, secretHash: made.secretHash });
    credentials = { clientId: made.clientId, secret: made.secret };

    // The lower instance: its own database and app, calling the upper one over HTTP.
    lower = await createTestApp();
    admin = await adminToken(lower);

    notLocus = createServer((_req, res) => {
      res.statusCode = 404;
      res.end('<html>not here</html>');
    });
    await new Promise<void>((resolve) => notLocus.listen(0, '127.0.0.1', resolve));
    notLocusUrl = `http://127.0.0.1:${(notLocus.address() as AddressInfo).port}`;
  }, 90_000);
  afterAll(async () => {
    await lower.close();
    await upper.close();
    await upperDb.close();
    await new Promise<void>((resolve) => notLocus.close(() => resolve()));
  });

  const save = async (body: { upperUrl: string | null; upperClientId: string | null; upperClientSecret?: string | null }) => {
    const current = (await call(lower, admin, 'GET', '/api/network/settings')).json() as { version: number };
    return call(lower, admin, 'PUT', '/api/network/settings', { name: 'Local lab A', level: 'Local', ...body, version: current.version });
  };
  const testConnection = async () => (await call(lower, admin, 'POST', '/api/network/settings/test-connection')).json() as { ok: boolean; upper?: unknown; error?: string };

  it('keeps the upper instance’s secret write-only: no GET returns it, the row holds it sealed, the trail says only that it changed', async () => {
    const saved = await save({ upperUrl, upperClientId: credentials.clientId, upperClientSecret: credentials.secret });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ name: 'Local lab A', level: 'Local', upperUrl, upperClientId: credentials.clientId, upperClientSecretSet: true });
    expect(saved.body).not.toContain(credentials.secret);
    const read = await call(lower, admin, 'GET', '/api/network/settings');
    expect(read.body).not.toContain(credentials.secret);
    const [row] = await lower.database.db.select().from(instanceSettings);
    expect(row!.upperClientSecret).not.toContain(credentials.secret);
    const trail = await lower.database.db.select().from(auditLog).where(eq(auditLog.entity, 'InstanceSettings'));
    expect(trail).toHaveLength(1);
    expect(JSON.stringify(trail)).not.toContain(credentials.secret);
    expect(trail[0]!.after).toMatchObject({ upperClientSecret: 'changed' });
  });

  it('Test connection signs in at the upper instance and shows its name and level', async () => {
    await save({ upperUrl, upperClientId: credentials.clientId });
    expect(await testConnection()).toEqual({ ok: true, upper: { name: 'State DNA index', level: 'State' } });
  });

  it('says the credentials are bad when the secret is wrong', async () => {
    await save({ upperUrl, upperClientId: credentials.clientId, upperClientSecret: `${credentials.secret}-wrong` });
    const result = await testConnection();
    expect(result.ok).toBe(false);
    expect(result.error).toBe('The upper instance refused the client id and secret (invalid_client)');
  });

  it('says the upper instance cannot be reached, or is not a Locus instance', async () => {
    await save({ upperUrl: `http://127.0.0.1:${await freePort()}`, upperClientId: credentials.clientId, upperClientSecret: credentials.secret });
    expect((await testConnection()).error).toMatch(/^The upper instance at http:\/\/127\.0\.0\.1:\d+ could not be reached/);
    await save({ upperUrl: notLocusUrl, upperClientId: credentials.clientId });
    expect((await testConnection()).error).toBe(`${notLocusUrl} does not answer as a Locus instance`);
  });

  it('says what is missing before trying, and refuses a malformed address with a clear message', async () => {
    await save({ upperUrl: null, upperClientId: null, upperClientSecret: null });
    expect(await testConnection()).toEqual({ ok: false, error: 'Save the upper instance’s address, client id and client secret first' });
    const bad = await save({ upperUrl: 'state index', upperClientId: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Give the address as http(s)://host[:port]');
  });

  it('refuses a stale version (409) and a person who is not an administrator with scope All (403)', async () => {
    const stale = await call(lower, admin, 'PUT', '/api/network/settings', { name: 'X', level: 'State', upperUrl: null, upperClientId: null, version: 0 });
    expect(stale.statusCode).toBe(409);
    const orgAdmin = await adminToken(lower, 'Organization');
    expect((await call(lower, orgAdmin, 'GET', '/api/network/settings')).statusCode).toBe(403);
    expect((await call(lower, orgAdmin, 'POST', '/api/network/settings/test-connection')).statusCode).toBe(403);
  });
});

describe('the registry of lower instances (issue 32)', () => {
  let t: TestApp;
  let admin: string;
  let clientId: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await adminToken(t);
    clientId = (await call(t, admin, 'POST', '/api/service-clients', { name: 'Local lab B' })).json().id as string;
  });
  afterAll(() => t.close());

  it('registers a lower instance with its laboratories, created here as organizations held read-only', async () => {
    const res = await call(t, admin, 'POST', '/api/network/lower-instances', { name: 'Lab B instance', serviceClientId: clientId, laboratories: ['Bergen police lab', 'Bergen university lab'] });
    expect(res.statusCode).toBe(201);
    const list = (await call(t, admin, 'GET', '/api/network/lower-instances')).json();
    expect(list.items).toEqual([
      expect.objectContaining({ name: 'Lab B instance', serviceClientName: 'Local lab B', laboratories: [expect.objectContaining({ name: 'Bergen police lab' }), expect.objectContaining({ name: 'Bergen university lab' })] }),
    ]);
    const lab = list.items[0].laboratories[0] as { id: string };
    const rename = await call(t, admin, 'PUT', `/api/organizations/${lab.id}`, { name: 'Renamed', version: 1 });
    expect(rename.statusCode).toBe(409);
    expect(rename.json().error).toBe('Organization "Bergen police lab" cannot be renamed: it is held for the lower instance "Lab B instance" and is read-only here');
    expect((await t.app.inject({ method: 'DELETE', url: `/api/organizations/${lab.id}`, headers: { authorization: `Bearer ${admin}` } })).statusCode).toBe(409);
    const trail = await t.database.db.select().from(auditLog).where(eq(auditLog.entity, 'LowerInstance'));
    expect(trail.map((r) => r.action)).toEqual(['Registered']);
  });

  it('refuses a taken laboratory name, a client already registered and an unknown client, with nothing written', async () => {
    const other = (await call(t, admin, 'POST', '/api/service-clients', { name: 'Local lab C' })).json().id as string;
    const taken = await call(t, admin, 'POST', '/api/network/lower-instances', { name: 'Lab C instance', serviceClientId: other, laboratories: ['New lab', 'bergen POLICE lab'] });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toContain('"Bergen police lab"');
    const again = await call(t, admin, 'POST', '/api/network/lower-instances', { name: 'Lab B again', serviceClientId: clientId, laboratories: ['Another lab'] });
    expect(again.statusCode).toBe(409);
    const unknown = await call(t, admin, 'POST', '/api/network/lower-instances', { name: 'Ghost', serviceClientId: '0f0e0d0c-0b0a-4908-8706-050403020100', laboratories: ['Ghost lab'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toBe('No such service client');
    const list = (await call(t, admin, 'GET', '/api/network/lower-instances')).json();
    expect(list.items).toHaveLength(1);
  });
});
