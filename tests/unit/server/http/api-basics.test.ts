import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../../../server/db/schema';
import { PERMISSIONS_POLICY } from '../../../../server/http/security-headers';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';

let t: TestApp;
const spaRoot = mkdtempSync(path.join(tmpdir(), 'locus-spa-'));
mkdirSync(path.join(spaRoot, 'assets'));
writeFileSync(path.join(spaRoot, 'assets', 'app.js'), 'console.log("locus");');
writeFileSync(path.join(spaRoot, 'index.html'), '<!doctype html><div id="root"></div><script type="module" src="/assets/app.js"></script>');

beforeAll(async () => {
  t = await createTestApp({ spaRoot });
});
afterAll(() => t.close());

describe('system endpoints', () => {
  it('reports health with the database engine in use and the matching index loaded', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'pglite', index: { state: 'ready', loaded: 0, total: 0 }, searches: { threads: expect.any(Number), running: 0, queued: 0 }, uploads: { waiting: 0, retrying: 0, failed: 0, oldestWaitingSeconds: null } });
  });

  it('publishes the OpenAPI document with the session calls', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/health', '/api/me', '/api/accept-licenses', '/api/client-config']));
  });

  it('tells the SPA where to sign in, with the scopes of spec 7.2', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/client-config' });
    expect(res.json()).toEqual({
      authority: 'http://localhost:8080/oidc',
      clientId: 'locus-spa',
      scope: 'openid email profile offline_access access',
      embeddedProvider: true,
    });
  });
});

describe('bad input never gives a 500', () => {
  it('answers an unknown API route with a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Not found' });
  });

  it('answers malformed JSON with 400', async () => {
    const user = await createUser(t.database.db, { scope: 'All' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/accept-licenses',
      headers: { authorization: `Bearer ${t.verifier.issue(user.id)}`, 'content-type': 'application/json' },
      payload: '{"broken":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toHaveProperty('error');
  });

  it.each([
    ['no token', undefined],
    ['a malformed header', 'Token abc'],
    ['an unknown token', 'Bearer not-a-token'],
  ])('refuses /api/me with %s (401)', async (_name, authorization) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/me', headers: authorization ? { authorization } : {} });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toHaveProperty('error');
  });

  it('refuses a token without the access scope (401)', async () => {
    const user = await createUser(t.database.db, { scope: 'All' });
    const token = t.verifier.issue(user.id, { scopes: ['openid'] });
    const res = await t.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(401);
  });

  it('refuses a token of a user locked after it was issued (401)', async () => {
    const user = await createUser(t.database.db, { scope: 'All' });
    const token = t.verifier.issue(user.id);
    const headers = { authorization: `Bearer ${token}` };
    expect((await t.app.inject({ method: 'GET', url: '/api/me', headers })).statusCode).toBe(200);
    await t.database.db.update(users).set({ lockedAt: new Date() }).where(eq(users.id, user.id));
    const res = await t.app.inject({ method: 'GET', url: '/api/me', headers });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'This account is locked' });
  });

  it('refuses a token whose user was deleted (401)', async () => {
    const token = t.verifier.issue('00000000-0000-4000-8000-000000000000');
    const res = await t.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /api/me and POST /api/accept-licenses', () => {
  it('returns the role, scope, organizations and permissions from the database, not the token', async () => {
    const db = t.database.db;
    const org = await createOrganization(db, 'North Lab');
    const group = await createAccessGroup(db, { name: 'Reader', grants: { Cases: ['Read'], Hits: ['Read', 'Publish'] } });
    const user = await createUser(db, { email: 'reader@lab.test', accessGroupId: group.id, organizationIds: [org.id] });
    const res = await t.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${t.verifier.issue(user.id)}` } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: user.id,
      email: 'reader@lab.test',
      roleName: 'Reader',
      isAdmin: false,
      scope: 'Organization',
      organizations: [{ id: org.id, name: 'North Lab' }],
      permissions: { Cases: ['Read'], Hits: ['Read', 'Publish'] },
      licensesAccepted: false,
    });
  });

  it('records licence acceptance once and keeps it', async () => {
    const user = await createUser(t.database.db, { scope: 'All' });
    const headers = { authorization: `Bearer ${t.verifier.issue(user.id)}` };
    const accepted = await t.app.inject({ method: 'POST', url: '/api/accept-licenses', headers });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ licensesAccepted: true });
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers });
    expect(me.json()).toMatchObject({ licensesAccepted: true });
  });
});

describe('browser protections', () => {
  it('sends a CSP that allows no inline script', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves the SPA for deep links (history fallback) and sets the XSRF cookie', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/all/hits/published' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('<div id="root">');
    expect(String(res.headers['set-cookie'])).toContain('XSRF-TOKEN=');
  });

  it('keeps API answers out of every cache, errors included, and switches off unused browser features everywhere', async () => {
    const user = await createUser(t.database.db, { scope: 'All' });
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${t.verifier.issue(user.id)}` } });
    expect(me.statusCode).toBe(200);
    expect(me.headers['cache-control']).toBe('no-store');
    const refused = await t.app.inject({ method: 'GET', url: '/api/me' });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['cache-control']).toBe('no-store');
    expect((await t.app.inject({ method: 'GET', url: '/api/no-such-thing' })).headers['cache-control']).toBe('no-store');
    for (const url of ['/api/health', '/', '/assets/app.js']) {
      expect((await t.app.inject({ method: 'GET', url })).headers['permissions-policy']).toBe(PERMISSIONS_POLICY);
    }
    expect(PERMISSIONS_POLICY).toContain('camera=()');
  });

  it('serves the built assets with a long cache lifetime', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('locus');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('refuses an unsafe call whose X-XSRF-TOKEN header does not match the cookie (403)', async () => {
    const user = await createUser(t.database.db, { scope: 'All' });
    const authorization = `Bearer ${t.verifier.issue(user.id)}`;
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/accept-licenses',
      headers: { authorization, cookie: 'XSRF-TOKEN=abc', 'x-xsrf-token': 'xyz' },
    });
    expect(wrong.statusCode).toBe(403);
    const right = await t.app.inject({
      method: 'POST',
      url: '/api/accept-licenses',
      headers: { authorization, cookie: 'XSRF-TOKEN=abc', 'x-xsrf-token': 'abc' },
    });
    expect(right.statusCode).toBe(200);
  });
});
