import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import type { Config } from '../config';

/**
 * Browser features Locus never uses, switched off for the page and anything it embeds. Only features
 * browsers recognise: an unknown name makes Chrome log a console error on every page load.
 */
export const PERMISSIONS_POLICY = 'accelerometer=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), midi=(), payment=(), usb=()';

const isApi = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');

/**
 * Helmet with a CSP that allows no inline script. `frame-ancestors 'self'` lets the silent-renew
 * page run in the app's own iframe; connect-src adds an external provider's origin when one is set.
 * Every answer also carries the Permissions-Policy, and API answers `Cache-Control: no-store`.
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  const https = config.publicUrl.startsWith('https://');
  const providerOrigin = config.identity.kind === 'external' ? new URL(config.identity.issuer).origin : undefined;
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...(providerOrigin ? [providerOrigin] : [])],
        frameSrc: ["'self'", ...(providerOrigin ? [providerOrigin] : [])],
        frameAncestors: ["'self'"],
        formAction: ["'self'", ...(providerOrigin ? [providerOrigin] : [])],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // The silent-renew iframe is same-origin.
    frameguard: { action: 'sameorigin' },
    hsts: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('permissions-policy', PERMISSIONS_POLICY);
    // API answers hold case data and permissions: no browser or proxy cache keeps them. A route that
    // chose its own policy (the event stream, downloads) keeps it; the SPA's hashed assets are not under /api.
    if (isApi(request.url) && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
