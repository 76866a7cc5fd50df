import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import type { Config } from '../config';

/**
 * Helmet with a CSP that allows no inline script. `frame-ancestors 'self'` lets the silent-renew
 * page run in the app's own iframe; connect-src adds an external provider's origin when one is set.
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
}
