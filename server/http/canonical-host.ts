import type { FastifyInstance } from 'fastify';

/**
 * Paths answered at any host: a health probe (a container's HEALTHCHECK, a load balancer) reaches the
 * process by an internal address and must not be sent to the public name it may not resolve.
 */
const ANY_HOST = new Set(['/api/health']);

/** host[:port] in lower case, without the scheme's default port (example.org:443 is example.org over https). */
function normalHost(host: string, protocol: string): string {
  const lower = host.toLowerCase();
  const defaultPort = protocol === 'https:' ? ':443' : ':80';
  return lower.endsWith(defaultPort) ? lower.slice(0, -defaultPort.length) : lower;
}

/**
 * PUBLIC_URL is the one address of the app (ARCHITECTURE.md "Deployment"): the OpenID issuer and the
 * redirect URIs live under it and the CSP allows only the page's own origin, so a page opened at
 * 127.0.0.1 or a LAN name cannot sign in. A request for any other host is sent to the same path and
 * query at PUBLIC_URL before anything else runs. The scheme is not compared: behind a proxy that ends
 * TLS the request arrives over http, and redirecting it would loop.
 */
export function registerCanonicalHost(app: FastifyInstance, publicUrl: string): void {
  const target = new URL(publicUrl);
  const canonical = normalHost(target.host, target.protocol);
  const base = target.origin + target.pathname.replace(/\/+$/, '');

  app.addHook('onRequest', async (request, reply) => {
    // request.host is X-Forwarded-Host when the proxy is trusted, else the Host header (absent in HTTP/1.0).
    if (normalHost(request.host ?? '', target.protocol) === canonical) return;
    if (ANY_HOST.has(request.url.split('?')[0]!)) return;
    // Temporary (302/307), not permanent: PUBLIC_URL may change and browsers keep permanent redirects.
    // 307 keeps the method and body of an API call; a page load is a GET either way.
    const code = request.method === 'GET' || request.method === 'HEAD' ? 302 : 307;
    return reply.header('cache-control', 'no-store').redirect(base + request.url, code);
  });
}
