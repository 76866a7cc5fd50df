import type { Middleware } from 'openapi-fetch';

/** Spec 7.1: every call carries the signed-in user's access token, read fresh on each request. */
export function bearerToken(getAccessToken: () => string | undefined): Middleware {
  return {
    onRequest({ request }) {
      const token = getAccessToken();
      if (token) request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
  };
}
