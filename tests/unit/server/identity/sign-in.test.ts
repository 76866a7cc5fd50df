import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../../server/db/database';
import { users } from '../../../../server/db/schema';
import { browse, CookieJar, freshDatabase, seedUser, signIn, startApp, startAuthorization, submitLogin, testConfig } from './helpers';

const INCORRECT = 'The e-mail or password is incorrect.';
const LOCKED = 'This account is locked. Contact your administrator.';
const THROTTLED = 'Too many failed sign-in attempts. Try again in 15 minutes.';

describe('sign-in page of the embedded provider', () => {
  let database: Database;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = await freshDatabase();
    app = await startApp(database);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const failedSignIns = async (id: string) =>
    (await database.db.select({ n: users.failedSignIns }).from(users).where(eq(users.id, id)))[0]!.n;

  it('sends the browser from the authorization request to a sign-in form with labelled fields', async () => {
    const jar = new CookieJar();
    const { interactionUrl, uid } = await startAuthorization(app, jar);
    expect(interactionUrl).toBe(`/oidc/interaction/${uid}`);

    const page = await browse(app, jar, { url: interactionUrl });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('<title>Sign in to Locus</title>');
    expect(page.body).toMatch(/<label for="email">Email<\/label>\s*<input id="email" name="email" type="email"/);
    expect(page.body).toMatch(/<label for="password">Password<\/label>\s*<input id="password" name="password" type="password"/);
    expect(page.body).toContain('<button type="submit">Sign in</button>');
    expect(page.body).toContain(`action="/oidc/interaction/${uid}/login"`);
    // Works under the app's CSP: no script at all, and the stylesheet is same-origin.
    expect(page.body).not.toMatch(/<script/i);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const css = await app.inject({ url: '/oidc/ui/sign-in.css' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
  });

  it('refuses a wrong password, keeps the e-mail in the form and counts the failure', async () => {
    const user = await seedUser(database.db);
    const jar = new CookieJar();
    const { uid } = await startAuthorization(app, jar);
    const response = await submitLogin(app, jar, uid, user.email, 'not the password');
    expect(response.statusCode).toBe(401);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toContain(INCORRECT);
    expect(response.body).toContain(`value="${user.email}"`);
    expect(response.body).not.toContain('not the password');
    expect(await failedSignIns(user.id)).toBe(1);
  });

  it('gives an unknown e-mail the very same message as a wrong password', async () => {
    const jar = new CookieJar();
    const { uid } = await startAuthorization(app, jar);
    const response = await submitLogin(app, jar, uid, 'nobody@example.org', 'whatever password');
    expect(response.statusCode).toBe(401);
    expect(response.body).toContain(INCORRECT);
  });

  it('escapes what the user typed when it shows the form again', async () => {
    const jar = new CookieJar();
    const { uid } = await startAuthorization(app, jar);
    const response = await submitLogin(app, jar, uid, '"><script>alert(1)</script>@x.org', 'pw');
    expect(response.body).not.toContain('<script>alert(1)</script>');
    expect(response.body).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;@x.org');
  });

  it('matches the e-mail case-insensitively and resets the failure count on success', async () => {
    const user = await seedUser(database.db, { email: 'Mixed.Case@Example.org' });
    const jar = new CookieJar();
    const { uid } = await startAuthorization(app, jar);
    await submitLogin(app, jar, uid, user.email, 'wrong');
    expect(await failedSignIns(user.id)).toBe(1);
    const ok = await submitLogin(app, jar, uid, 'mixed.case@example.ORG', user.password);
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toMatch(new RegExp(`/oidc/auth/${uid}$`));
    expect(await failedSignIns(user.id)).toBe(0);
  });

  it('refuses a locked account even with the right password', async () => {
    const user = await seedUser(database.db, { lockedAt: new Date() });
    const jar = new CookieJar();
    const { uid } = await startAuthorization(app, jar);
    const response = await submitLogin(app, jar, uid, user.email, user.password);
    expect(response.statusCode).toBe(403);
    expect(response.body).toContain(LOCKED);
    // A wrong password on a locked account says nothing about the lock.
    const wrong = await submitLogin(app, jar, uid, user.email, 'wrong');
    expect(wrong.body).toContain(INCORRECT);
    expect(wrong.body).not.toContain(LOCKED);
  });

  /** The sign-in form posted from `remoteAddress`, optionally naming another client in X-Forwarded-For. */
  const postLogin = (to: FastifyInstance, jar: CookieJar, uid: string, form: { email: string; password: string }, from: { remoteAddress?: string; forwardedFor?: string } = {}) =>
    to.inject({
      method: 'POST',
      url: `/oidc/interaction/${uid}/login`,
      ...(from.remoteAddress ? { remoteAddress: from.remoteAddress } : {}),
      headers: {
        host: 'localhost:8080',
        cookie: jar.header(),
        ...(from.forwardedFor ? { 'x-forwarded-for': from.forwardedFor } : {}),
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: new URLSearchParams(form).toString(),
    });

  it('answers 429 after the configured number of failures for that account, from any address and to the right password', async () => {
    // testConfig sets LOGIN_RATE_LIMIT=3.
    const user = await seedUser(database.db);
    const jar = new CookieJar();
    const { uid } = await startAuthorization(app, jar);
    for (let i = 0; i < 3; i += 1) {
      // Each try names another client address: without TRUST_PROXY the header is not believed.
      const wrong = await postLogin(app, jar, uid, { email: user.email, password: `wrong ${i}` }, { forwardedFor: `203.0.113.${i}` });
      expect(wrong.statusCode).toBe(401);
    }
    const blocked = await submitLogin(app, jar, uid, user.email, user.password);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.body).toContain(THROTTLED);
    expect(blocked.headers['cache-control']).toBe('no-store');
    expect(await failedSignIns(user.id)).toBe(3);

    // The account is blocked, not the address: another client, another e-mail spelling, still the right password.
    for (const from of [{ forwardedFor: '203.0.113.9' }, { remoteAddress: '198.51.100.20' }]) {
      const other = await postLogin(app, jar, uid, { email: user.email.toUpperCase(), password: user.password }, from);
      expect(other.statusCode).toBe(429);
    }
  });

  it('ignores X-Forwarded-For without TRUST_PROXY: a guesser naming a new address per try is still one address', async () => {
    const direct = await startApp(database, { config: testConfig({ LOGIN_RATE_LIMIT: '1' }) });
    try {
      const jar = new CookieJar();
      const { uid } = await startAuthorization(direct, jar);
      for (let i = 0; i < 5; i += 1) {
        const guess = await postLogin(direct, jar, uid, { email: `stranger${i}@example.org`, password: 'guess' }, { forwardedFor: `203.0.113.${100 + i}` });
        expect(guess.statusCode).toBe(401);
      }
      const user = await seedUser(database.db);
      const next = await postLogin(direct, jar, uid, { email: user.email, password: user.password }, { forwardedFor: '203.0.113.200' });
      expect(next.statusCode).toBe(429);
    } finally {
      await direct.close();
    }
  });

  it('believes X-Forwarded-For only from a configured proxy, and blocks an address that fails over many accounts', async () => {
    const behindProxy = await startApp(database, { config: testConfig({ TRUST_PROXY: '127.0.0.1', LOGIN_RATE_LIMIT: '1' }) });
    try {
      const jar = new CookieJar();
      const { uid } = await startAuthorization(behindProxy, jar);
      // One failure per account; an address may fail five times over every account it tries.
      for (let i = 0; i < 5; i += 1) {
        const guess = await postLogin(behindProxy, jar, uid, { email: `nobody${i}@example.org`, password: 'guess' }, { forwardedFor: '203.0.113.50' });
        expect(guess.statusCode).toBe(401);
      }
      const user = await seedUser(database.db);
      const sprayer = await postLogin(behindProxy, jar, uid, { email: user.email, password: user.password }, { forwardedFor: '203.0.113.50' });
      expect(sprayer.statusCode).toBe(429);
      // The proxy itself is not the client: another address behind it signs in.
      const colleague = await postLogin(behindProxy, jar, uid, { email: user.email, password: user.password }, { forwardedFor: '203.0.113.51' });
      expect(colleague.statusCode).toBe(303);
    } finally {
      await behindProxy.close();
    }
  });

  it('signs in end to end and lands on the SPA callback with a code and the state', async () => {
    const user = await seedUser(database.db);
    const { callback, state } = await signIn(app, user);
    expect(`${callback.origin}${callback.pathname}`).toBe('http://localhost:8080/authentication/callback');
    expect(callback.searchParams.get('state')).toBe(state);
    expect(callback.searchParams.get('iss')).toBe('http://localhost:8080/oidc');
  });

  it('shows an expiry page when the interaction cookie is missing or names another interaction', async () => {
    const jar = new CookieJar();
    const { uid } = await startAuthorization(app, jar);
    const noCookie = await browse(app, new CookieJar(), { url: `/oidc/interaction/${uid}` });
    expect(noCookie.statusCode).toBe(400);
    expect(noCookie.body).toContain('This sign-in request has expired');
    const wrongUid = await browse(app, jar, { url: '/oidc/interaction/not-this-one' });
    expect(wrongUid.statusCode).toBe(400);
  });

  it('caps sign-in form posts per address, whatever their outcome', async () => {
    const jar = new CookieJar();
    const { uid } = await startAuthorization(app, jar);
    // An address of its own, so the other tests' posts do not count.
    const post = () => postLogin(app, jar, uid, { email: '', password: '' }, { remoteAddress: '198.51.100.7' });
    for (let i = 0; i < 30; i += 1) expect((await post()).statusCode).toBe(400);
    expect((await post()).statusCode).toBe(429);
  });

  it('asks again for both fields when one is empty', async () => {
    const jar = new CookieJar();
    const { uid } = await startAuthorization(app, jar);
    const response = await browse(app, jar, { method: 'POST', url: `/oidc/interaction/${uid}/login`, body: { email: 'a@b.org' } });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Enter your e-mail and password.');
  });
});
