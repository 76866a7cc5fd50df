import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Forbidden } from './errors';

/** Spec 9: cookie XSRF-TOKEN, header X-XSRF-TOKEN (double-submit). */
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Gives the browser an XSRF cookie the SPA can read and echo in the header. */
export function issueXsrfCookie(request: FastifyRequest, reply: FastifyReply): void {
  if (request.cookies[XSRF_COOKIE]) return;
  reply.setCookie(XSRF_COOKIE, randomBytes(24).toString('base64url'), {
    path: '/',
    sameSite: 'strict',
    httpOnly: false,
    secure: request.protocol === 'https',
  });
}

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * A browser that holds the XSRF cookie must echo it on unsafe API calls. Calls without the cookie
 * (scripts, other services) carry only a bearer token, which a foreign page cannot send for them.
 */
export function registerXsrfCheck(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (!UNSAFE.has(request.method) || !request.url.startsWith('/api/')) return;
    const cookie = request.cookies[XSRF_COOKIE];
    if (!cookie) return;
    const header = request.headers[XSRF_HEADER];
    if (typeof header !== 'string' || !same(header, cookie)) throw new Forbidden('The X-XSRF-TOKEN header is missing or does not match');
  });
}
