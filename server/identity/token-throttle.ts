import type { IncomingMessage } from 'node:http';
import { parse } from 'node:querystring';
import { PassThrough } from 'node:stream';
import type { Clock } from '../clock';
import { WindowCounts } from './window-counts';

/**
 * Token requests one client may make from one address per minute. The SPA asks for a token at sign-in and
 * on each refresh, so a laboratory's many users behind one address stay well under it; a script guessing
 * codes, refresh tokens or a client's credentials is held to it.
 */
export const TOKEN_REQUESTS_PER_MINUTE = 60;
const WINDOW_MS = 60_000;
/** oidc-provider's own limit on a token request's body. */
const MAX_BODY_BYTES = 56 * 1024;

/** The part of oidc-provider's Koa context the throttle reads and answers through. */
interface TokenRequestContext {
  method: string;
  path: string;
  /** The Node request; middie has set `ip` to Fastify's request.ip, so TRUST_PROXY decides whose address it is. */
  req: IncomingMessage & { ip?: string };
  status: number;
  body: unknown;
  get(field: string): string;
  set(field: string, value: string): void;
}

/** The body of a request, or null when it is larger than the provider accepts. */
async function readBody(req: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The client a token request names: its Basic credentials' id, else the body's client_id (public clients, client_secret_post). */
function clientOf(authorization: string, body: Buffer): string {
  const basic = /^basic\s+(\S+)$/i.exec(authorization);
  if (basic) return decodeURIComponent(Buffer.from(basic[1]!, 'base64').toString('utf8').split(':')[0] ?? '');
  const id = parse(body.toString('utf8')).client_id;
  return typeof id === 'string' ? id : '';
}

/**
 * Koa middleware for oidc-provider (issue 30, Edges): token requests counted per client and address, as sign-in's
 * are; over the limit the endpoint answers 429 with Retry-After until the window ends. The body is read here to
 * learn the client and handed on to the provider unchanged.
 */
export function tokenEndpointThrottle(clock: Clock, limit = TOKEN_REQUESTS_PER_MINUTE) {
  const counts = new WindowCounts(limit, WINDOW_MS, clock);
  return async (ctx: TokenRequestContext, next: () => Promise<void>): Promise<void> => {
    if (ctx.method !== 'POST' || ctx.path !== '/token') return next();
    const body = await readBody(ctx.req);
    if (body === null) {
      ctx.status = 413;
      ctx.body = { error: 'invalid_request', error_description: 'The request body is too large' };
      return;
    }
    const key = `${clientOf(ctx.get('authorization'), body)}\n${ctx.req.ip ?? ctx.req.socket.remoteAddress ?? ''}`;
    const until = counts.blockedUntil(key);
    if (until !== undefined) {
      const seconds = Math.max(1, Math.ceil((until - clock.now().getTime()) / 1000));
      ctx.status = 429;
      ctx.set('Retry-After', String(seconds));
      ctx.body = { error: 'too_many_requests', error_description: `Too many token requests from this client and address; try again in ${seconds} seconds` };
      return;
    }
    counts.record(key);
    // The provider reads the body from the request: it gets the same bytes again, with the request's headers.
    const replay = Object.assign(new PassThrough(), { headers: ctx.req.headers, ip: ctx.req.ip });
    replay.end(body);
    ctx.req = replay as unknown as TokenRequestContext['req'];
    await next();
  };
}
