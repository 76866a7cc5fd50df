import type { Middleware } from 'openapi-fetch';
import { withUrl } from './with-url';

/** camelCase → dash-case for one literal path segment; anything that is not a plain identifier is kept. */
export function toDashCase(segment: string): string {
  if (!/^[a-z][A-Za-z0-9]*$/.test(segment)) return segment;
  return segment.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

/**
 * Spec 7.1: path segments go out dash-cased. Only the segments written in the path template are
 * converted; segments filled from `{param}` values are ids and stay exactly as given. The template's
 * segments line up with the last segments of the URL (path values are encoded, so never contain '/').
 */
export function dashCasePath(pathname: string, schemaPath: string): string {
  const urlSegments = pathname.split('/');
  const templateSegments = schemaPath.split('?')[0]!.split('/');
  const offset = urlSegments.length - templateSegments.length;
  if (offset < 0) return pathname;
  return urlSegments
    .map((segment, i) => {
      const template = i >= offset ? templateSegments[i - offset] : undefined;
      // Base-URL segments (before the template) are ours already; placeholders carry ids.
      if (template === undefined || template.includes('{')) return segment;
      return toDashCase(segment);
    })
    .join('/');
}

export function dashCasePaths(): Middleware {
  return {
    async onRequest({ request, schemaPath }) {
      const url = new URL(request.url);
      const pathname = dashCasePath(url.pathname, schemaPath);
      if (pathname === url.pathname) return undefined;
      url.pathname = pathname;
      return withUrl(request, url.toString());
    },
  };
}
