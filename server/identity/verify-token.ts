import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors as joseErrors,
  jwtVerify,
  type JWK,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import type { Clock } from '../clock';
import { Unauthorized } from '../errors';
import type { TokenVerifier, VerifiedToken } from './token-verifier';

/** Seconds of clock skew accepted between the provider and this server. */
export const CLOCK_TOLERANCE = 5;

interface VerifyOptions {
  issuer: string | string[];
  audience: string;
  clock: Clock;
  /** Required JWT `typ` header (RFC 9068 "at+jwt"); unchecked when undefined. */
  typ?: string;
  algorithms?: string[];
}

/** Why a token failed, in words the client may see; the cause stays in the server log. */
function reason(err: unknown): string {
  if (err instanceof joseErrors.JWTExpired) return 'The access token has expired';
  if (err instanceof joseErrors.JWTClaimValidationFailed) return `The access token is not valid here (${err.claim})`;
  if (err instanceof joseErrors.JWSSignatureVerificationFailed || err instanceof joseErrors.JWKSNoMatchingKey) {
    return 'The access token signature is not valid';
  }
  if (err instanceof Unauthorized) return err.message;
  return 'The access token is not valid';
}

function scopesOf(payload: JWTPayload): string[] {
  const raw = payload.scope ?? payload.scp;
  if (typeof raw === 'string') return raw.split(' ').filter(Boolean);
  if (Array.isArray(raw)) return raw.filter((s): s is string => typeof s === 'string');
  return [];
}

/** RFC 9068 names the client `client_id`; Keycloak and Entra ID say `azp`. */
function clientOf(payload: JWTPayload): string | undefined {
  const id = payload.client_id ?? payload.azp;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

async function verifyWith(keys: JWTVerifyGetKey, token: string, opts: VerifyOptions): Promise<VerifiedToken> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, keys, {
      issuer: opts.issuer,
      audience: opts.audience,
      clockTolerance: CLOCK_TOLERANCE,
      currentDate: opts.clock.now(),
      requiredClaims: ['sub', 'iat', 'exp'],
      ...(opts.typ ? { typ: opts.typ } : {}),
      ...(opts.algorithms ? { algorithms: opts.algorithms } : {}),
    }));
  } catch (err) {
    throw new Unauthorized(reason(err));
  }
  if (typeof payload.sub !== 'string' || payload.sub === '' || typeof payload.iat !== 'number') {
    throw new Unauthorized('The access token is not valid');
  }
  return {
    subject: payload.sub,
    ...(typeof payload.email === 'string' ? { email: payload.email } : {}),
    issuedAt: new Date(payload.iat * 1000),
    scopes: scopesOf(payload),
    ...(typeof payload.grant_id === 'string' ? { grantId: payload.grant_id } : {}),
    ...(clientOf(payload) ? { clientId: clientOf(payload)! } : {}),
  };
}

/** The embedded provider's tokens: checked against its own public keys, no network. */
export function createLocalVerifier(opts: { issuer: string; audience: string; keys: JWK[]; clock: Clock; algorithms?: string[] }): TokenVerifier {
  const keySet = createLocalJWKSet({ keys: opts.keys });
  return {
    verify: (token) =>
      verifyWith(keySet, token, { issuer: opts.issuer, audience: opts.audience, clock: opts.clock, typ: 'at+jwt', algorithms: opts.algorithms }),
  };
}

/** The embedded provider's client-credentials tokens name the client as their subject and carry no grant. */
export const isClientCredentials = (token: VerifiedToken) => token.clientId !== undefined && token.subject === token.clientId && token.grantId === undefined;

export const SIGNED_OUT = 'The access token was revoked: its sign-in has ended';

/**
 * The embedded provider's tokens stay valid only while their grant does. Signing out (end session)
 * and revoking the refresh token delete the grant, so its access tokens answer 401 at once instead
 * of living out their lifetime; `grantExists` is one lookup by primary key, on either database.
 */
export function requiringLiveGrant(verifier: TokenVerifier, grantExists: (grantId: string) => Promise<boolean>): TokenVerifier {
  return {
    async verify(token) {
      const verified = await verifier.verify(token);
      // A client-credentials token has no grant; authentication checks its service client is not revoked.
      if (isClientCredentials(verified)) return verified;
      if (!verified.grantId || !(await grantExists(verified.grantId))) throw new Unauthorized(SIGNED_OUT);
      return verified;
    },
  };
}

interface Discovery {
  issuer?: unknown;
  jwks_uri?: unknown;
}

/**
 * An external provider's tokens: the key set comes from its discovery document's jwks_uri,
 * fetched on the first token (so the app starts while the provider is down) and cached by jose.
 */
export function createRemoteVerifier(opts: {
  issuer: string;
  audience: string;
  clock: Clock;
  fetch?: typeof globalThis.fetch;
}): TokenVerifier {
  const doFetch = opts.fetch ?? globalThis.fetch;
  let resolved: Promise<{ keys: JWTVerifyGetKey; issuers: string[] }> | undefined;

  async function discover() {
    const url = `${opts.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    const response = await doFetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw new Error(`discovery answered ${response.status}`);
    const doc = (await response.json()) as Discovery;
    if (typeof doc.jwks_uri !== 'string') throw new Error('discovery document has no jwks_uri');
    // Tokens name the issuer as the discovery document does (a trailing slash may differ from config).
    const issuers = [...new Set([opts.issuer, ...(typeof doc.issuer === 'string' ? [doc.issuer] : [])])];
    return { keys: createRemoteJWKSet(new URL(doc.jwks_uri)), issuers };
  }

  return {
    async verify(token) {
      resolved ??= discover();
      let remote: { keys: JWTVerifyGetKey; issuers: string[] };
      try {
        remote = await resolved;
      } catch {
        resolved = undefined; // retry on the next request
        throw new Unauthorized('The identity provider could not be reached to check the access token');
      }
      return verifyWith(remote.keys, token, { issuer: remote.issuers, audience: opts.audience, clock: opts.clock });
    },
  };
}
