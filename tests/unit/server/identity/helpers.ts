import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../../../server/app';
import type { Clock } from '../../../../server/clock';
import { loadConfig, type Config } from '../../../../server/config';
import type { Database, Db } from '../../../../server/db/database';
import { accessGroupPermissions, accessGroups, organizations, userOrganizations, users } from '../../../../server/db/schema';
import { hashPassword } from '../../../../server/identity/password';

export const PUBLIC_URL = 'http://localhost:8080';
export const HOST = 'localhost:8080';
export const CLIENT_ID = 'locus-spa';
export const REDIRECT_URI = `${PUBLIC_URL}/authentication/callback`;
export const SCOPE = 'openid email profile offline_access access';

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ NODE_ENV: 'test', PUBLIC_URL, LOGIN_RATE_LIMIT: '3', ...env });
}

export { freshPglite as freshDatabase } from '../../../helpers/database';

export async function startApp(database: Database, opts: { config?: Config; clock?: Clock } = {}): Promise<FastifyInstance> {
  // Not every request here names Host localhost:8080; tests/unit/server/http/canonical-host.test.ts covers the redirect.
  const app = await buildApp({ database, config: opts.config ?? testConfig(), redirectToPublicUrl: false, ...(opts.clock ? { clock: opts.clock } : {}) });
  await app.ready();
  return app;
}

export interface SeededUser {
  id: string;
  email: string;
  password: string;
  organizationId: string;
  roleName: string;
}

let counter = 0;

/** An organization, a role and a user with a real scrypt password hash. */
export async function seedUser(
  db: Db,
  opts: { email?: string; isAdmin?: boolean; scope?: 'All' | 'Organization' | null; permissions?: [string, string][]; lockedAt?: Date } = {},
): Promise<SeededUser> {
  counter += 1;
  const password = 'correct horse battery staple';
  const [org] = await db.insert(organizations).values({ name: `State Lab ${counter}` }).returning();
  const roleName = opts.isAdmin === false ? `Analysts ${counter}` : `Administrators ${counter}`;
  const [group] = await db.insert(accessGroups).values({ name: roleName, isAdmin: opts.isAdmin ?? true }).returning();
  for (const [entity, verb] of opts.permissions ?? []) {
    await db.insert(accessGroupPermissions).values({ accessGroupId: group!.id, entity, verb });
  }
  const email = opts.email ?? `analyst${counter}@example.org`;
  const [user] = await db
    .insert(users)
    .values({
      email,
      firstName: 'Ada',
      lastName: 'Lovelace',
      scope: opts.scope === undefined ? 'All' : opts.scope,
      accessGroupId: group!.id,
      passwordHash: await hashPassword(password),
      lockedAt: opts.lockedAt ?? null,
    })
    .returning();
  await db.insert(userOrganizations).values({ userId: user!.id, organizationId: org!.id });
  return { id: user!.id, email, password, organizationId: org!.id, roleName };
}

/** Cookies across inject calls, by name (paths ignored: every call goes to the same origin). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(response: LightMyRequestResponse): void {
    for (const c of response.cookies as { name: string; value: string; expires?: Date; maxAge?: number }[]) {
      const gone = c.value === '' || c.maxAge === 0 || (c.expires !== undefined && c.expires.getTime() < Date.now());
      if (gone) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  has(name: string): boolean {
    return this.cookies.has(name);
  }
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** A browser-ish request: Host of the public URL, the jar's cookies, cookies stored from the answer. */
export async function browse(
  app: FastifyInstance,
  jar: CookieJar,
  opts: { method?: 'GET' | 'POST'; url: string; body?: Record<string, string> },
): Promise<LightMyRequestResponse> {
  const url = opts.url.startsWith('http') ? new URL(opts.url).pathname + new URL(opts.url).search : opts.url;
  const response = await app.inject({
    method: opts.method ?? 'GET',
    url,
    headers: {
      host: HOST,
      accept: 'text/html',
      cookie: jar.header(),
      ...(opts.body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(opts.body ? { payload: form(opts.body) } : {}),
  });
  jar.store(response);
  return response;
}

/** GET /oidc/auth as the SPA sends it; answers the interaction page URL. */
export async function startAuthorization(app: FastifyInstance, jar: CookieJar, pkce = pkcePair(), extra: Record<string, string> = {}) {
  const params = new URLSearchParams({
    ...extra,
    client_id: CLIENT_ID,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope: SCOPE,
    state: randomBytes(8).toString('hex'),
    nonce: randomBytes(8).toString('hex'),
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
  });
  const response = await browse(app, jar, { url: `/oidc/auth?${params}` });
  if (response.statusCode !== 303) throw new Error(`authorization answered ${response.statusCode}: ${response.body}`);
  const interactionUrl = response.headers.location as string;
  return { interactionUrl, uid: interactionUrl.split('/').pop()!, state: params.get('state')!, pkce };
}

/** POSTs the sign-in form of the pending interaction. */
export function submitLogin(app: FastifyInstance, jar: CookieJar, uid: string, email: string, password: string) {
  return browse(app, jar, { method: 'POST', url: `/oidc/interaction/${uid}/login`, body: { email, password } });
}

export interface TokenSet {
  access_token: string;
  id_token: string;
  refresh_token: string;
  expires_in: number;
  token_type: string;
  scope: string;
}

export async function tokenRequest(app: FastifyInstance, body: Record<string, string>): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/oidc/token',
    headers: { host: HOST, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form({ client_id: CLIENT_ID, ...body }),
  });
}

/** The whole authorization code + PKCE flow, as the SPA and a browser run it. */
export async function signIn(app: FastifyInstance, user: { email: string; password: string }, jar = new CookieJar()) {
  const { uid, state, pkce } = await startAuthorization(app, jar);
  const login = await submitLogin(app, jar, uid, user.email, user.password);
  if (login.statusCode !== 303) throw new Error(`login answered ${login.statusCode}: ${login.body}`);
  const resumed = await browse(app, jar, { url: login.headers.location as string });
  if (resumed.statusCode !== 303) throw new Error(`resume answered ${resumed.statusCode}: ${resumed.body}`);
  const callback = new URL(resumed.headers.location as string);
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`no code in ${callback.href}`);
  const token = await tokenRequest(app, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: pkce.verifier });
  if (token.statusCode !== 200) throw new Error(`token answered ${token.statusCode}: ${token.body}`);
  return { tokens: token.json<TokenSet>(), callback, state, jar };
}

export function getMe(app: FastifyInstance, accessToken: string) {
  return app.inject({ method: 'GET', url: '/api/me', headers: { host: HOST, authorization: `Bearer ${accessToken}` } });
}

export function decodeJwt(token: string): { header: Record<string, unknown>; payload: Record<string, unknown> } {
  const [h, p] = token.split('.');
  return { header: JSON.parse(Buffer.from(h!, 'base64url').toString()), payload: JSON.parse(Buffer.from(p!, 'base64url').toString()) };
}
