import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { issueXsrfCookie } from '../xsrf';

/** Vite fingerprints everything under assets/, so a file there never changes under its name. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html and unhashed files: a browser may keep them but asks again before each use. */
export const REVALIDATE = 'no-cache';

/**
 * Serves the built SPA (build/spa) with history fallback: any GET outside /api, /oidc and /assets
 * that is not a file answers index.html, so deep links work. API and provider paths get a JSON 404.
 * Files are sent as the .br or .gz written beside them at build time (vite.config.ts) when
 * the browser accepts it. Source maps are neither built nor served.
 */
export async function registerSpa(app: FastifyInstance, opts: { root: string }): Promise<void> {
  const indexFile = path.join(opts.root, 'index.html');
  const built = existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, {
      root: opts.root,
      index: false,
      wildcard: false,
      preCompressed: true,
      // The compressed copies are chosen by Accept-Encoding, not asked for by name; a stray source map stays private.
      globIgnore: ['**/*.br', '**/*.gz', '**/*.map'],
      // The cache lifetime is ours (hashed or not), so send's own max-age=0 stays out.
      cacheControl: false,
      setHeaders: (res, file) => {
        res.setHeader('cache-control', file.includes(`${path.sep}assets${path.sep}`) ? IMMUTABLE : REVALIDATE);
        // Caches keep one copy per encoding.
        res.setHeader('vary', 'Accept-Encoding');
      },
    });
  }
  const index = built ? readFileSync(indexFile) : undefined;

  app.setNotFoundHandler((request, reply) => {
    const url = request.url;
    const isApi = url.startsWith('/api') || url.startsWith('/oidc');
    // A chunk missing after a new build must fail as a 404, not load index.html as JavaScript.
    const isAsset = url.startsWith('/assets/');
    if (isApi || isAsset || request.method !== 'GET' || !index) {
      return reply.code(404).send({ error: 'Not found' });
    }
    issueXsrfCookie(request, reply);
    return reply.code(200).header('cache-control', REVALIDATE).type('text/html; charset=utf-8').send(index);
  });
}
