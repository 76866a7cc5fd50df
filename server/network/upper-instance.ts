import { API_SCOPE } from '../../core/claims';
import { InstanceIdentity, type ConnectionTest } from '../../core/schemas/network';

export interface UpperCredentials {
  url: string;
  clientId: string;
  clientSecret: string;
}

const TIMEOUT_MS = 10_000;

class Refused extends Error {}

async function call(fetcher: typeof fetch, url: string, init: RequestInit, unreachable: string): Promise<Response> {
  try {
    return await fetcher(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (err) {
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : err instanceof Error ? err.message : String(err);
    throw new Refused(`${unreachable} (${cause})`);
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

/**
 * A token for the upper instance's API: its sign-in authority from GET /api/client-config, the token endpoint from
 * that authority's discovery document (OpenID Connect Discovery 1.0 §4), then the client-credentials grant with
 * HTTP Basic client authentication (RFC 6749 §4.4 and §2.3.1).
 */
export async function upperToken(credentials: UpperCredentials, fetcher: typeof fetch = fetch): Promise<string> {
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
  return body.access_token;
}

/** "Test connection": a token from the upper instance, then its GET /api/network/instance (its name and level). */
export async function testUpperConnection(credentials: UpperCredentials, fetcher: typeof fetch = fetch): Promise<ConnectionTest> {
  try {
    const token = await upperToken(credentials, fetcher);
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
