import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema';
import { bearerToken } from './middleware/bearer-token';
import { xsrfToken } from './middleware/xsrf-token';
import { dashCasePaths } from './middleware/dash-case-paths';
import { REWRITE_RULES, rewritePaths, type RewriteRule } from './middleware/rewrite-rules';
import { errorHandling, type ApiNotice } from './middleware/error-handling';

export { ApiError } from './middleware/api-error';
export type { ApiNotice } from './middleware/error-handling';

/**
 * Everything the client needs from the outside world is passed in: no globals, no navigation. The
 * app supplies the session's token and 401 handler and the toaster; tests supply fakes.
 */
export interface ApiClientOptions {
  /** Origin the schema's `/api/...` paths are resolved against. */
  baseUrl: string;
  getAccessToken(): string | undefined;
  /** Called on 401; the session restarts sign-in. */
  onUnauthorized(): void;
  notify(notice: ApiNotice): void;
  /** The `document.cookie` string, for the XSRF token. */
  readCookies?: () => string;
  fetch?: (request: Request) => Promise<Response>;
  rewriteRules?: readonly RewriteRule[];
}

export type ApiClient<P extends {} = paths> = Client<P>;

/**
 * The typed API client of spec 7.1. Failed calls reject with an ApiError after the user has been
 * told (spec 8.1), so callers only handle what is specific to them.
 */
export function createApiClient<P extends {} = paths>(options: ApiClientOptions): ApiClient<P> {
  const client = createClient<P>({
    baseUrl: options.baseUrl,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  // Order matters: requests pass through in this order, responses in reverse, so the error
  // handling sees the response first.
  client.use(
    bearerToken(options.getAccessToken),
    xsrfToken(options.readCookies ?? (() => '')),
    dashCasePaths(),
    rewritePaths(options.rewriteRules ?? REWRITE_RULES),
    errorHandling({ onUnauthorized: options.onUnauthorized, notify: options.notify }),
  );
  return client;
}
