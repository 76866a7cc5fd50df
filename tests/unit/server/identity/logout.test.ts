import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../../server/db/database';
import { errorPage, loginPage } from '../../../../server/identity/pages';
import { SIGNED_OUT } from '../../../../server/identity/verify-token';
import { browse, CookieJar, freshDatabase, getMe, HOST, seedUser, signIn, startApp, tokenRequest, type TokenSet } from './helpers';

const LOGGED_OUT = 'http://localhost:8080/authentication/logged-out';

describe('sign-out and error pages of the embedded provider', () => {
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

  function xsrfOf(html: string): string {
    const match = html.match(/name="xsrf" value="([^"]+)"/);
    if (!match) throw new Error(`no xsrf input in ${html}`);
    return match[1]!;
  }

  it('asks with a plain form and a Sign out button, then ends the session and its tokens', async () => {
    const user = await seedUser(database.db);
    const jar = new CookieJar();
    const { tokens } = await signIn(app, user, jar);
    expect(jar.has('_session')).toBe(true);
    expect((await getMe(app, tokens.access_token)).statusCode).toBe(200);

    const params = new URLSearchParams({ id_token_hint: tokens.id_token, post_logout_redirect_uri: LOGGED_OUT, state: 'bye' });
    const page = await browse(app, jar, { url: `/oidc/session/end?${params}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Sign out of Locus</title>');
    expect(page.body).not.toMatch(/<script/i);
    expect(page.body).toContain('<form id="op.logoutForm" method="post" action="http://localhost:8080/oidc/session/end/confirm">');
    expect(page.body).toContain('<button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>Sign out</button>');
    expect(page.headers['cache-control']).toContain('no-store');

    const confirmed = await browse(app, jar, {
      method: 'POST',
      url: '/oidc/session/end/confirm',
      body: { xsrf: xsrfOf(page.body), logout: 'yes' },
    });
    expect(confirmed.statusCode).toBe(303);
    expect(confirmed.headers.location).toBe(`${LOGGED_OUT}?state=bye`);
    expect(jar.has('_session')).toBe(false);

    // Tokens are bound to the session: the refresh token died with it, and the access token with it.
    const refresh = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(refresh.statusCode).toBe(400);
    const me = await getMe(app, tokens.access_token);
    expect(me.statusCode).toBe(401);
    expect(me.json()).toEqual({ error: SIGNED_OUT });
  });

  it('refuses the confirmation without the xsrf secret', async () => {
    const user = await seedUser(database.db);
    const jar = new CookieJar();
    await signIn(app, user, jar);
    await browse(app, jar, { url: '/oidc/session/end' });
    const forged = await browse(app, jar, { method: 'POST', url: '/oidc/session/end/confirm', body: { xsrf: 'guess', logout: 'yes' } });
    expect(forged.statusCode).toBe(400);
    expect(forged.body).not.toMatch(/<script/i);
    expect(jar.has('_session')).toBe(true);
  });

  it('shows its own signed-out page when no post-logout URI is given', async () => {
    const user = await seedUser(database.db);
    const jar = new CookieJar();
    const { tokens } = await signIn(app, user, jar);
    const page = await browse(app, jar, { url: `/oidc/session/end?${new URLSearchParams({ id_token_hint: tokens.id_token })}` });
    const confirmed = await browse(app, jar, { method: 'POST', url: '/oidc/session/end/confirm', body: { xsrf: xsrfOf(page.body), logout: 'yes' } });
    const success = await browse(app, jar, { url: confirmed.headers.location as string });
    expect(success.statusCode).toBe(200);
    expect(success.body).toContain('You are signed out');
    expect(success.body).not.toMatch(/<script/i);
    const refresh = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(refresh.json<TokenSet & { error?: string }>().error).toBe('invalid_grant');
    expect((await getMe(app, tokens.access_token)).statusCode).toBe(401);
  });

  it('keeps the access tokens of another sign-in of the same user', async () => {
    const user = await seedUser(database.db);
    const jar = new CookieJar();
    const { tokens } = await signIn(app, user, jar);
    const elsewhere = (await signIn(app, user)).tokens;
    const page = await browse(app, jar, { url: `/oidc/session/end?${new URLSearchParams({ id_token_hint: tokens.id_token })}` });
    await browse(app, jar, { method: 'POST', url: '/oidc/session/end/confirm', body: { xsrf: xsrfOf(page.body), logout: 'yes' } });
    expect((await getMe(app, tokens.access_token)).statusCode).toBe(401);
    expect((await getMe(app, elsewhere.access_token)).statusCode).toBe(200);
  });

  it("lets oidc-provider's self-submitting page (no session) run under the CSP: its script hash is allowed, with a no-script button", async () => {
    const page = await browse(app, new CookieJar(), { url: '/oidc/session/end' });
    expect(page.statusCode).toBe(200);
    const csp = page.headers['content-security-policy'] as string;
    const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src'))!;
    expect(scriptSrc).toContain("'self'");
    expect(scriptSrc).toMatch(/'sha256-[A-Za-z0-9+/=]+'/);
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(page.body).toContain('<noscript>');
  });

  it('renders provider errors as an escaped page without script, or JSON when asked', async () => {
    const bad = await browse(app, new CookieJar(), { url: '/oidc/auth?client_id=nobody&response_type=code&scope=openid' });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toMatch(/^text\/html/);
    expect(bad.body).toContain('<title>Sign-in error</title>');
    expect(bad.body).toContain('invalid_client');
    expect(bad.body).not.toMatch(/<script/i);

    const json = await app.inject({
      url: '/oidc/auth?client_id=nobody&response_type=code&scope=openid',
      headers: { host: HOST, accept: 'application/json' },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('escapes every value it puts into a page', () => {
    const html = errorPage({ base: '/oidc', appUrl: 'http://localhost:8080' }, { error: '<b>x</b>', error_description: '"><script>alert(1)</script>' });
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt;');
    const login = loginPage({ base: '/oidc', appUrl: 'http://localhost:8080' }, { uid: 'a"b', email: "o'hara@x.org", error: '<i>' });
    expect(login).toContain('value="o&#39;hara@x.org"');
    expect(login).toContain('&lt;i&gt;');
    expect(login).toContain('action="/oidc/interaction/a%22b/login"');
  });
});
