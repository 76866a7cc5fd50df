import { createHash } from 'node:crypto';
import { API_SCOPE } from '../../core/claims';
import { InstanceIdentity, type ConnectionTest } from '../../core/schemas/network';

export interface UpperCredentials {
  url: string;
  clientId: string;
  clientSecret: string;
}

const TIMEOUT_MS = 10_000;

class Refused extends Error {}

/** What a failed call to the upper instance says: its own refusal, or that it could not be reached and why. */
export function unreachable(err: unknown, what: string): string {
  if (err instanceof Refused) return err.message;
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : err instanceof Error ? err.message : String(err);
  return `${what} (${cause})`;
}

async function call(fetcher: typeof fetch, url: string, init: RequestInit, what: string): Promise<Response> {
  try {
    return await fetcher(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (err) {
    throw new Refused(unreachable(err, what));
  }
}

async function json(response: Response): Promise<Record<string, unknown> | undefined> {
  try {
    const body: unknown = await response.json();
    return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A token's room before its expiry: a call made with it must still reach the upper instance in time. */
const EXPIRY_MARGIN_S = 60;
/** Tokens by credentials (the secret hashed): a sender's rounds and batches reuse one until shortly before it expires. */
const tokens = new Map<string, { token: string; until: number }>();
const keyOf = (c: UpperCredentials) => `${c.url}\n${c.clientId}\n${createHash('sha256').update(c.clientSecret).digest('hex')}`;

/**
 * A token for the upper instance's API, reused until a minute before it expires: the upper level's token endpoint
 * takes 60 requests a minute from one client and address (token-throttle.ts), and a token per batch held a
 * 100,000-profile upload to that (issue 32's replication bench stalled on too_many_requests).
 */
export async function upperToken(credentials: UpperCredentials, fetcher: typeof fetch = fetch, now: () => number = Date.now): Promise<string> {
  const key = keyOf(credentials);
  const kept = tokens.get(key);
  if (kept && kept.until > now()) return kept.token;
  const { token, expiresIn } = await requestToken(credentials, fetcher);
  if (expiresIn > EXPIRY_MARGIN_S) tokens.set(key, { token, until: now() + (expiresIn - EXPIRY_MARGIN_S) * 1000 });
  return token;
}

/** Drops the kept token: the upper instance refused it (revoked client, restarted with other keys); the next call asks anew. */
export function forgetUpperToken(credentials: UpperCredentials): void {
  tokens.delete(keyOf(credentials));
}

/**
 * A new token for the upper instance's API: its sign-in authority from GET /api/client-config, the token endpoint from
 * that authority's discovery document (OpenID Connect Discovery 1.0 §4), then the client-credentials grant with
 * HTTP Basic client authentication (RFC 6749 §4.4 and §2.3.1).
 */
async function requestToken(credentials: UpperCredentials, fetcher: typeof fetch): Promise<{ token: string; expiresIn: number }> {
  const base = credentials.url.replace(/\/+$/, '');
  const notLocus = `${base} does not answer as a Locus instance`;
  const config = await call(fetcher, `${base}/api/client-config`, { headers: { accept: 'application/json' } }, `The upper instance at ${base} could not be reached`);
  const authority = config.ok ? (await json(config))?.authority : undefined;
  if (typeof authority !== 'string') throw new Refused(notLocus);
  const discoveryUrl = `${authority.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  const discovery = await call(fetcher, discoveryUrl, { headers: { accept: 'application/json' } }, `The upper instance's identity provider at ${authority} could not be reached`);
  const tokenEndpoint = discovery.ok ? (await json(discovery))?.token_endpoint : undefined;
  if (typeof tokenEndpoint !== 'string') throw new Refused(`The upper instance's identity provider at ${authority} publishes no token endpoint`);
  const basic = Buffer.from(`${encodeURIComponent(credentials.clientId)}:${encodeURIComponent(credentials.clientSecret)}`).toString('base64');
  const answer = await call(
    fetcher,
    tokenEndpoint,
    {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: API_SCOPE }).toString(),
    },
    `The upper instance's token endpoint ${tokenEndpoint} could not be reached`,
  );
  const body = await json(answer);
  if (!answer.ok || typeof body?.access_token !== 'string') {
    const why = typeof body?.error === 'string' ? ` (${body.error})` : ` (HTTP ${answer.status})`;
    throw new Refused(`The upper instance refused the client id and secret${why}`);
  }
  return { token: body.access_token, expiresIn: typeof body.expires_in === 'number' ? body.expires_in : 0 };
}

/** "Test connection": a token from the upper instance, then its GET /api/network/instance (its name and level). */
export async function testUpperConnection(credentials: UpperCredentials, fetcher: typeof fetch = fetch): Promise<ConnectionTest> {
  try {
    // Always a new token: the test is of the credentials as they are now.
    const { token } = await requestToken(credentials, fetcher);
    const base = credentials.url.replace(/\/+$/, '');
    const answer = await call(
      fetcher,
      `${base}/api/network/instance`,
      { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } },
      `The upper instance at ${base} could not be reached`,
    );
    const body = await json(answer);
    if (answer.status === 401 || answer.status === 403) {
      const why = typeof body?.error === 'string' ? `: ${body.error}` : '';
      throw new Refused(`The upper instance refused this instance's token (HTTP ${answer.status})${why}`);
    }
    const identity = answer.ok ? InstanceIdentity.safeParse(body) : undefined;
    if (!identity?.success) throw new Refused(`${base} does not answer as a Locus instance (GET /api/network/instance: HTTP ${answer.status})`);
    return { ok: true, upper: identity.data };
  } catch (err) {
    if (err instanceof Refused) return { ok: false, error: err.message };
    throw err;
  }
}
