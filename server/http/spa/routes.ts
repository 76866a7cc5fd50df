import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { issueXsrfCookie } from '../xsrf';

/**
 * Serves the built SPA (build/spa) with history fallback: any GET outside /api and /oidc that is
 * not a file answers index.html, so deep links work. API and provider paths get a JSON 404.
 */
export async function registerSpa(app: FastifyInstance, opts: { root: string }): Promise<void> {
  const indexFile = path.join(opts.root, 'index.html');
  const built = existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, {
      root: opts.root,
      index: false,
      wildcard: false,
      // Vite fingerprints assets, so they may be cached for good; index.html never is.
      setHeaders: (res, file) => {
        if (file.includes(`${path.sep}assets${path.sep}`)) res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  const index = built ? readFileSync(indexFile) : undefined;

  app.setNotFoundHandler((request, reply) => {
    const url = request.url;
    const isApi = url.startsWith('/api') || url.startsWith('/oidc');
    if (isApi || request.method !== 'GET' || !index) {
      return reply.code(404).send({ error: 'Not found' });
    }
    issueXsrfCookie(request, reply);
    return reply.code(200).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(index);
  });
}
