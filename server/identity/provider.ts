import { eq } from 'drizzle-orm';
import Provider, {
  errors,
  type Account,
  type AccountClaims,
  type ClientView,
  type Configuration,
  type ErrorOut,
  type Grant,
  type KoaContextWithOIDC,
  type TokenView,
} from 'oidc-provider';
import { API_SCOPE, encodePermissionsClaim } from '../../core/claims';
import { tokenEndpointThrottle } from './token-throttle';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { users } from '../db/schema';
import { loadPrincipal } from './load-principal';
import { createAdapterFactory } from './adapter';
import { secretMatches } from './service-clients';
import { SIGNING_ALG, type IdentityKeys } from './keys';
import { errorPage, logoutPage, signedOutPage, type PagePaths } from './pages';

export type EmbeddedIdentity = Extract<Config['identity'], { kind: 'embedded' }>;

/** Seconds. Refresh tokens rotate on every use; the rotated token keeps the first one's expiry. */
const SESSION_TTL = 12 * 60 * 60;
const REFRESH_TOKEN_TTL = 12 * 60 * 60;
const ID_TOKEN_TTL = 60 * 60;
const INTERACTION_TTL = 60 * 60;
const AUTHORIZATION_CODE_TTL = 60;

/** The claims Locus adds to access tokens (product-spec section 3), read from the database. */
export interface LocusTokenClaims {
  email: string;
  /** JSON string {Name, IsAdmin, Permissions}. */
  permissions: string;
  ScopeLevel?: string;
  organization: string[];
}

type UserRow = typeof users.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The user behind a subject, or undefined when unknown or locked (which ends sign-in and refresh). */
async function activeUser(db: Db, sub: string): Promise<UserRow | undefined> {
  if (!UUID.test(sub)) return undefined;
  const [row] = await db.select().from(users).where(eq(users.id, sub));
  return row && !row.lockedAt ? row : undefined;
}

export async function locusClaims(db: Db, row: UserRow): Promise<LocusTokenClaims> {
  const principal = await loadPrincipal(db, row);
  return {
    email: row.email,
    permissions: encodePermissionsClaim(principal.roleName, principal.isAdmin, principal.permissions),
    ...(principal.scope ? { ScopeLevel: principal.scope } : {}),
    organization: [...principal.organizationIds],
  };
}

/** findAccount: `sub` is the user's id; claims are read when a token or userinfo needs them. */
export function accountFinder(db: Db) {
  return async (_ctx: KoaContextWithOIDC, sub: string): Promise<Account | undefined> => {
    const row = await activeUser(db, sub);
    if (!row) return undefined;
    return {
      accountId: row.id,
      async claims(): Promise<AccountClaims> {
        const fresh = (await activeUser(db, row.id)) ?? row;
        const name = `${fresh.firstName} ${fresh.lastName}`.trim();
        return {
          sub: fresh.id,
          given_name: fresh.firstName,
          family_name: fresh.lastName,
          ...(name ? { name } : {}),
          ...(await locusClaims(db, fresh)),
        };
      },
    };
  };
}

/**
 * First-party client: no consent screen. Whatever the SPA asks for (OIDC scopes, claims, the API
 * resource's scopes) is granted, on the existing grant when there is one.
 */
async function loadExistingGrant(ctx: KoaContextWithOIDC): Promise<Grant | undefined> {
  const { oidc } = ctx;
  const { client } = oidc;
  const accountId = oidc.session.accountId;
  if (!client || !accountId) return undefined;
  const grantId = oidc.result?.consent?.grantId ?? oidc.session.grantIdFor(client.clientId);
  let grant = grantId ? await oidc.provider.Grant.find(grantId) : undefined;
  if (grant && (grant.accountId !== accountId || grant.clientId !== client.clientId)) grant = undefined;
  grant ??= new oidc.provider.Grant({ accountId, clientId: client.clientId });
  const scopes = [...oidc.requestParamOIDCScopes];
  if (scopes.length > 0) grant.addOIDCScope(scopes.join(' '));
  const claims = [...oidc.requestParamClaims];
  if (claims.length > 0) grant.addOIDCClaims(claims);
  for (const [indicator, server] of Object.entries(oidc.resourceServers)) {
    const granted = [...oidc.requestParamScopes].filter((s) => server.scopes.has(s));
    if (granted.length > 0) grant.addResourceScope(indicator, granted.join(' '));
  }
  await grant.save();
  return grant;
}

/** Builds the embedded provider (not yet mounted). */
export function createProvider(deps: {
  db: Db;
  clock: Clock;
  config: Config;
  identity: EmbeddedIdentity;
  keys: IdentityKeys;
  paths: PagePaths;
}): Provider {
  const { db, clock, config, identity, keys, paths } = deps;
  const appOrigin = new URL(config.publicUrl).origin;

  const resourceServer = {
    scope: API_SCOPE,
    audience: identity.audience,
    accessTokenFormat: 'jwt',
    accessTokenTTL: identity.accessTokenTtl,
    jwt: { sign: { alg: SIGNING_ALG } },
  };

  const configuration: Configuration = {
    adapter: createAdapterFactory(db, clock),
    clients: [
      {
        client_id: identity.clientId,
        client_name: 'Locus',
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: [`${config.publicUrl}/authentication/callback`, `${config.publicUrl}/authentication/silent-renew`],
        post_logout_redirect_uris: [`${config.publicUrl}/authentication/logged-out`],
      },
    ],
    jwks: { keys: keys.signing },
    cookies: {
      keys: keys.cookie,
      long: { httpOnly: true, sameSite: 'lax' },
      short: { httpOnly: true, sameSite: 'lax' },
    },
    findAccount: accountFinder(db),
    scopes: ['openid', 'offline_access', 'email', 'profile'],
    claims: {
      openid: ['sub'],
      email: ['email'],
      // The Locus claims ride with `profile` so the SPA's ID token carries them too (spec 3).
      profile: ['given_name', 'family_name', 'name', 'permissions', 'ScopeLevel', 'organization'],
    },
    // ID tokens carry the profile and e-mail claims: the API access token cannot call userinfo.
    conformIdTokenClaims: false,
    responseTypes: ['code'],
    pkce: { required: () => true },
    clientBasedCORS: (_ctx: KoaContextWithOIDC, origin: string) => origin === appOrigin,
    interactions: {
      url: (_ctx: KoaContextWithOIDC, interaction: { uid: string }) => `${paths.base}/interaction/${interaction.uid}`,
    },
    loadExistingGrant,
    issueRefreshToken: async (_ctx: KoaContextWithOIDC, client: ClientView) =>
      client.clientId === identity.clientId && client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: () => true,
    // Every code and token is bound to the sign-in session, offline_access or not: signing out
    // (end_session) revokes the grant, refresh tokens included.
    expiresWithSession: async () => true,
    extraTokenClaims: async (_ctx: KoaContextWithOIDC, token: TokenView) => {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
      const row = await activeUser(db, token.accountId);
      // grant_id: the API refuses the token once the grant is gone (sign-out), as JWTs are not looked up.
      return row ? { ...(await locusClaims(db, row)), ...(token.grantId ? { grant_id: token.grantId } : {}) } : undefined;
    },
    features: {
      devInteractions: { enabled: false },
      // Service clients (issue 32): other instances and scripts get API tokens with their client id and secret.
      clientCredentials: { enabled: true },
      introspection: { enabled: false },
      // Not used by the SPA; DPoP would also need proof checks in verify-token.ts.
      pushedAuthorizationRequests: { enabled: false },
      dPoP: { enabled: false },
      userinfo: { enabled: true },
      revocation: {
        enabled: true,
        // A public client may revoke only its own tokens (RFC 7009 §2.1).
        allowedPolicy: async (_ctx: KoaContextWithOIDC, client: ClientView, token: TokenView) =>
          token.clientId === client.clientId,
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx: KoaContextWithOIDC, form: string) => {
          ctx.type = 'html';
          ctx.body = logoutPage(paths, form);
        },
        postLogoutSuccessSource: async (ctx: KoaContextWithOIDC) => {
          ctx.type = 'html';
          ctx.body = signedOutPage(paths);
        },
      },
      resourceIndicators: {
        enabled: true,
        // The SPA's plain authorization request (no resource parameter) gets a JWT for the API.
        defaultResource: async () => identity.audience,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx: KoaContextWithOIDC, indicator: string) => {
          if (indicator !== identity.audience) throw new errors.InvalidTarget();
          return resourceServer;
        },
      },
    },
    ttl: {
      AccessToken: identity.accessTokenTtl,
      ClientCredentials: identity.accessTokenTtl,
      AuthorizationCode: AUTHORIZATION_CODE_TTL,
      IdToken: ID_TOKEN_TTL,
      Interaction: INTERACTION_TTL,
      Session: SESSION_TTL,
      Grant: REFRESH_TOKEN_TTL,
      RefreshToken: (ctx: KoaContextWithOIDC | undefined) =>
        ctx?.oidc?.entities.RotatedRefreshToken?.remainingTTL ?? REFRESH_TOKEN_TTL,
    },
    renderError: async (ctx: KoaContextWithOIDC, out: ErrorOut) => {
      ctx.set('cache-control', 'no-store');
      if (ctx.accepts('html', 'json') === 'json') {
        ctx.type = 'json';
        ctx.body = { error: out.error, error_description: out.error_description };
        return;
      }
      ctx.type = 'html';
      ctx.body = errorPage(paths, out);
    },
  };

  const provider = new Provider(identity.issuer, configuration);
  // Behind a TLS-terminating proxy (TRUST_PROXY set): trust X-Forwarded-Proto/Host for URLs and secure
  // cookies. Koa knows no list of proxies, only on or off; without TRUST_PROXY nobody's headers are believed.
  provider.proxy = config.trustProxy !== false;
  provider.use(tokenEndpointThrottle(clock));
  // Service clients' secrets are stored hashed (service-clients.ts): the metadata's client_secret is the hash.
  provider.Client.prototype.compareClientSecret = function compareHashed(this: { clientSecret?: string }, actual: unknown) {
    return Promise.resolve(this.clientSecret !== undefined && secretMatches(this.clientSecret, actual));
  };
  return provider;
}
