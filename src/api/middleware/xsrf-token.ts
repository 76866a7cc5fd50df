import type { Middleware } from 'openapi-fetch';

/** Spec 9: double-submit XSRF protection with the cookie XSRF-TOKEN and the header X-XSRF-TOKEN. */
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'X-XSRF-TOKEN';

/** Methods that cannot change state do not need the token, and leaving it off keeps it out of logs. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Reads one cookie's value from a `document.cookie`-style string. */
export function readCookie(cookies: string, name: string): string | undefined {
  for (const part of cookies.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return undefined;
}

export function xsrfToken(readCookies: () => string): Middleware {
  return {
    onRequest({ request }) {
      if (SAFE_METHODS.has(request.method.toUpperCase())) return undefined;
      const token = readCookie(readCookies(), XSRF_COOKIE);
      if (token) request.headers.set(XSRF_HEADER, token);
      return request;
    },
  };
}
