import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../../server/db/database';
import { accessGroupPermissions, identityKeys, users } from '../../../../server/db/schema';
import { SIGNED_OUT } from '../../../../server/identity/verify-token';
import {
  browse,
  CLIENT_ID,
  CookieJar,
  decodeJwt,
  freshDatabase,
  getMe,
  HOST,
  pkcePair,
  REDIRECT_URI,
  SCOPE,
  seedUser,
  signIn,
  startApp,
  startAuthorization,
  submitLogin,
  tokenRequest,
  type SeededUser,
  type TokenSet,
} from './helpers';

const ISSUER = 'http://localhost:8080/oidc';

describe('tokens of the embedded provider', () => {
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

  async function providerKey(): Promise<{ jwk: JWK; key: CryptoKey | Uint8Array }> {
    const [row] = await database.db.select().from(identityKeys).where(eq(identityKeys.use, 'signing'));
    const jwk = row!.material as JWK;
    return { jwk, key: (await importJWK(jwk, 'RS256')) as CryptoKey };
  }

  async function mint(
    key: CryptoKey | Uint8Array,
    kid: string,
    claims: Record<string, unknown>,
    times: { iat?: number; exp?: number } = {},
  ): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ scope: 'access', ...claims })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid })
      .setIssuedAt(times.iat ?? now)
      .setExpirationTime(times.exp ?? now + 300)
      .sign(key);
  }

  describe('after a full authorization code + PKCE sign-in', () => {
    let user: SeededUser;
    let tokens: TokenSet;

    beforeAll(async () => {
      user = await seedUser(database.db, {
        isAdmin: false,
        scope: 'Organization',
        permissions: [
          ['Cases', 'Read'],
          ['Cases', 'Add'],
          ['Hits', 'Publish'],
        ],
      });
      ({ tokens } = await signIn(app, user));
    });

    it('issues a JWT access token for the Locus API with the Locus claims', () => {
      expect(tokens.token_type).toBe('Bearer');
      expect(tokens.refresh_token).toBeTruthy();
      const { header, payload } = decodeJwt(tokens.access_token);
      expect(header).toMatchObject({ alg: 'RS256', typ: 'at+jwt' });
      expect(payload).toMatchObject({
        iss: ISSUER,
        aud: 'urn:locus:api',
        sub: user.id,
        client_id: CLIENT_ID,
        scope: 'access',
        email: user.email,
        ScopeLevel: 'Organization',
        organization: [user.organizationId],
      });
      expect(typeof payload.permissions).toBe('string');
      const role = JSON.parse(payload.permissions as string) as { Name: string; IsAdmin: boolean; Permissions: string };
      expect(role.Name).toBe(user.roleName);
      expect(role.IsAdmin).toBe(false);
      expect(JSON.parse(role.Permissions)).toEqual({ Cases: { Read: true, Add: true }, Hits: { Publish: true } });
    });

    it('issues an ID token for the SPA with the profile, e-mail and Locus claims', () => {
      const { payload } = decodeJwt(tokens.id_token);
      expect(payload).toMatchObject({
        iss: ISSUER,
        aud: CLIENT_ID,
        sub: user.id,
        email: user.email,
        given_name: 'Ada',
        family_name: 'Lovelace',
        name: 'Ada Lovelace',
        ScopeLevel: 'Organization',
      });
      expect(typeof payload.permissions).toBe('string');
    });

    it('is accepted by the API', async () => {
      const me = await getMe(app, tokens.access_token);
      expect(me.statusCode).toBe(200);
      expect(me.json()).toMatchObject({ id: user.id, email: user.email, roleName: user.roleName, isAdmin: false, scope: 'Organization' });
    });

    it('exchanges the refresh token for new tokens, rotates it, and reads the role afresh', async () => {
      const [group] = await database.db.select({ id: users.accessGroupId }).from(users).where(eq(users.id, user.id));
      await database.db.insert(accessGroupPermissions).values({ accessGroupId: group!.id!, entity: 'Profiles', verb: 'Read' });

      // offline_access is granted only with prompt=consent (OIDC Core 11), so the SPA's full scope
      // minus offline_access is what a refresh may ask for.
      const refreshed = await tokenRequest(app, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        scope: 'openid email profile access',
      });
      expect(refreshed.statusCode).toBe(200);
      const next = refreshed.json<TokenSet>();
      expect(next.refresh_token).not.toBe(tokens.refresh_token);
      expect(next.id_token).toBeTruthy();
      const role = JSON.parse(decodeJwt(next.access_token).payload.permissions as string) as { Permissions: string };
      expect(JSON.parse(role.Permissions)).toMatchObject({ Profiles: { Read: true } });
      expect((await getMe(app, next.access_token)).statusCode).toBe(200);

      // oidc-client-ts sends back the token response's scope (access); no scope at all works too.
      const narrow = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: next.refresh_token, scope: 'access' });
      expect(narrow.statusCode).toBe(200);
      const bare = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: narrow.json<TokenSet>().refresh_token });
      expect(bare.statusCode).toBe(200);
      tokens = bare.json<TokenSet>();
    });
  });

  it('grants offline_access when asked with prompt=consent, finishing consent without a screen', async () => {
    const user = await seedUser(database.db);
    const jar = new CookieJar();
    const { uid, pkce } = await startAuthorization(app, jar, pkcePair(), { prompt: 'consent' });
    const login = await submitLogin(app, jar, uid, user.email, user.password);
    const consentPrompt = await browse(app, jar, { url: login.headers.location as string });
    expect(consentPrompt.statusCode).toBe(303);
    expect(consentPrompt.headers.location).toMatch(/^\/oidc\/interaction\//);
    const consented = await browse(app, jar, { url: consentPrompt.headers.location as string });
    expect(consented.statusCode).toBe(303);
    const back = await browse(app, jar, { url: consented.headers.location as string });
    const code = new URL(back.headers.location as string).searchParams.get('code')!;
    const token = await tokenRequest(app, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: pkce.verifier });
    expect(token.statusCode).toBe(200);
    const refreshed = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: token.json<TokenSet>().refresh_token, scope: SCOPE });
    expect(refreshed.statusCode).toBe(200);
  });

  it('leaves ScopeLevel out of the token of a user without a scope', async () => {
    const user = await seedUser(database.db, { scope: null });
    const { tokens } = await signIn(app, user);
    const { payload } = decodeJwt(tokens.access_token);
    expect(payload).not.toHaveProperty('ScopeLevel');
    expect(payload.organization).toEqual([user.organizationId]);
  });

  it('treats reuse of a rotated refresh token as theft and revokes the whole grant', async () => {
    const user = await seedUser(database.db);
    const { tokens } = await signIn(app, user);
    const first = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(first.statusCode).toBe(200);
    const reused = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toMatchObject({ error: 'invalid_grant' });
    const successor = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: first.json<TokenSet>().refresh_token });
    expect(successor.statusCode).toBe(400);
  });

  it('revokes a refresh token at the revocation endpoint', async () => {
    const user = await seedUser(database.db);
    const { tokens } = await signIn(app, user);
    const revoked = await app.inject({
      method: 'POST',
      url: '/oidc/token/revocation',
      headers: { host: HOST, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token: tokens.refresh_token, token_type_hint: 'refresh_token', client_id: CLIENT_ID }).toString(),
    });
    expect(revoked.statusCode).toBe(200);
    const refresh = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(refresh.statusCode).toBe(400);
    expect(refresh.json()).toMatchObject({ error: 'invalid_grant' });
    // The refresh token's grant went with it, and every access token issued under it (what the SPA's sign-out revokes).
    expect((await getMe(app, tokens.access_token)).statusCode).toBe(401);
  });

  it('refuses the access token and the refresh token of a user locked after sign-in', async () => {
    const user = await seedUser(database.db);
    const { tokens } = await signIn(app, user);
    expect((await getMe(app, tokens.access_token)).statusCode).toBe(200);
    await database.db.update(users).set({ lockedAt: new Date() }).where(eq(users.id, user.id));
    expect((await getMe(app, tokens.access_token)).statusCode).toBe(401);
    const refresh = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(refresh.statusCode).toBe(400);
  });

  describe('tokens the API must refuse with 401', () => {
    let user: SeededUser;
    /** The grant of a real sign-in of `user`: the API refuses a token whose grant is not there. */
    let grantId: string;
    beforeAll(async () => {
      user = await seedUser(database.db);
      grantId = decodeJwt((await signIn(app, user)).tokens.access_token).payload.grant_id as string;
    });

    it('accepts a token minted with the provider key and proper claims (control case)', async () => {
      const { jwk, key } = await providerKey();
      const token = await mint(key, jwk.kid!, { iss: ISSUER, aud: 'urn:locus:api', sub: user.id, grant_id: grantId });
      expect((await getMe(app, token)).statusCode).toBe(200);
    });

    it('refuses a well-signed token that names no grant, or one that is gone', async () => {
      const { jwk, key } = await providerKey();
      for (const claims of [{}, { grant_id: 'no-such-grant' }]) {
        const me = await getMe(app, await mint(key, jwk.kid!, { iss: ISSUER, aud: 'urn:locus:api', sub: user.id, ...claims }));
        expect(me.statusCode).toBe(401);
        expect(me.json()).toEqual({ error: SIGNED_OUT });
      }
    });

    it('refuses a token signed by another key', async () => {
      const { jwk } = await providerKey();
      const { privateKey } = await generateKeyPair('RS256');
      const token = await mint(privateKey, jwk.kid!, { iss: ISSUER, aud: 'urn:locus:api', sub: user.id });
      const me = await getMe(app, token);
      expect(me.statusCode).toBe(401);
      expect(me.json()).toEqual({ error: 'The access token signature is not valid' });
    });

    it('refuses a token for another audience or from another issuer', async () => {
      const { jwk, key } = await providerKey();
      const otherAudience = await mint(key, jwk.kid!, { iss: ISSUER, aud: 'urn:other:api', sub: user.id });
      expect((await getMe(app, otherAudience)).statusCode).toBe(401);
      const otherIssuer = await mint(key, jwk.kid!, { iss: 'https://evil.example/oidc', aud: 'urn:locus:api', sub: user.id });
      expect((await getMe(app, otherIssuer)).statusCode).toBe(401);
    });

    it('refuses an expired token', async () => {
      const { jwk, key } = await providerKey();
      const now = Math.floor(Date.now() / 1000);
      const token = await mint(key, jwk.kid!, { iss: ISSUER, aud: 'urn:locus:api', sub: user.id }, { iat: now - 3600, exp: now - 60 });
      const me = await getMe(app, token);
      expect(me.statusCode).toBe(401);
      expect(me.json()).toEqual({ error: 'The access token has expired' });
    });

    it('refuses the ID token (wrong audience and type)', async () => {
      const { tokens } = await signIn(app, user);
      expect((await getMe(app, tokens.id_token)).statusCode).toBe(401);
    });

    it('refuses a tampered token and garbage without a 500', async () => {
      const { jwk, key } = await providerKey();
      const token = await mint(key, jwk.kid!, { iss: ISSUER, aud: 'urn:locus:api', sub: user.id });
      const [h, p, s] = token.split('.');
      const payload = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
      const forged = [h, Buffer.from(JSON.stringify({ ...payload, sub: '00000000-0000-0000-0000-000000000000' })).toString('base64url'), s].join('.');
      expect((await getMe(app, forged)).statusCode).toBe(401);
      expect((await getMe(app, 'not.a.jwt')).statusCode).toBe(401);
      expect((await getMe(app, 'garbage')).statusCode).toBe(401);
    });
  });

  it('keeps its keys across a restart: a second app over the same database accepts the first one’s token', async () => {
    const user = await seedUser(database.db);
    const { tokens } = await signIn(app, user);
    const keysBefore = await database.db.select({ id: identityKeys.id }).from(identityKeys);
    const restarted = await startApp(database);
    try {
      expect((await getMe(restarted, tokens.access_token)).statusCode).toBe(200);
      const refreshed = await tokenRequest(restarted, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
      expect(refreshed.statusCode).toBe(200);
      expect(await database.db.select({ id: identityKeys.id }).from(identityKeys)).toEqual(keysBefore);
    } finally {
      await restarted.close();
    }
  });

  it('refuses a real token once the clock is past its expiry', async () => {
    const user = await seedUser(database.db);
    const { tokens } = await signIn(app, user);
    const later = new Date(Date.now() + (900 + 60) * 1000); // ACCESS_TOKEN_TTL defaults to 900 s
    const future = await startApp(database, { clock: { now: () => later } });
    try {
      expect((await getMe(future, tokens.access_token)).statusCode).toBe(401);
    } finally {
      await future.close();
    }
  });

  describe('discovery and PKCE', () => {
    it('advertises S256 as the only PKCE method and only public keys', async () => {
      const discovery = await app.inject({ url: '/oidc/.well-known/openid-configuration', headers: { host: HOST } });
      expect(discovery.statusCode).toBe(200);
      const doc = discovery.json<Record<string, unknown>>();
      expect(doc.issuer).toBe(ISSUER);
      expect(doc.code_challenge_methods_supported).toEqual(['S256']);
      expect(doc.response_types_supported).toEqual(['code']);
      expect(doc.authorization_endpoint).toBe(`${ISSUER}/auth`);
      expect(doc.revocation_endpoint).toBe(`${ISSUER}/token/revocation`);
      expect(doc.end_session_endpoint).toBe(`${ISSUER}/session/end`);
      const jwks = await app.inject({ url: '/oidc/jwks', headers: { host: HOST } });
      const { keys } = jwks.json<{ keys: Record<string, unknown>[] }>();
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) expect(key).not.toHaveProperty('d');
    });

    it('refuses an authorization request without a code challenge or with the plain method', async () => {
      const base = { client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, response_type: 'code', scope: SCOPE, state: 's' };
      const missing = await app.inject({ url: `/oidc/auth?${new URLSearchParams(base)}`, headers: { host: HOST } });
      expect(new URL(missing.headers.location as string).searchParams.get('error')).toBe('invalid_request');
      const plain = await app.inject({
        url: `/oidc/auth?${new URLSearchParams({ ...base, code_challenge: pkcePair().verifier, code_challenge_method: 'plain' })}`,
        headers: { host: HOST },
      });
      expect(new URL(plain.headers.location as string).searchParams.get('error')).toBe('invalid_request');
    });

    it('refuses a code exchange with the wrong code verifier', async () => {
      const user = await seedUser(database.db);
      const jar = new CookieJar();
      // The flow by hand up to the code, then a verifier that does not match the challenge.
      const { uid } = await startAuthorization(app, jar);
      const login = await submitLogin(app, jar, uid, user.email, user.password);
      const resumed = await browse(app, jar, { url: login.headers.location as string });
      const code = new URL(resumed.headers.location as string).searchParams.get('code')!;
      const token = await tokenRequest(app, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: pkcePair().verifier });
      expect(token.statusCode).toBe(400);
      expect(token.json()).toMatchObject({ error: 'invalid_grant' });
    });
  });
});
