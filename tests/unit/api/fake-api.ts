import { vi } from 'vitest';
import { createApiClient, type ApiClientOptions, type ApiNotice } from '../../../src/api/client';

/** Any path, any method: the middleware tests exercise paths the generated schema does not have yet. */
type Operation = {
  parameters: { path?: Record<string, string>; query?: Record<string, unknown> };
  requestBody?: { content: { 'application/json': unknown } };
  responses: { 200: { content: { 'application/json': unknown } } };
};
export type LoosePaths = Record<string, { get: Operation; post: Operation; put: Operation; delete: Operation }>;

export const BASE = 'https://locus.test';

/** A fake server: records every request it receives and answers with `respond`. */
export function fakeApi(respond: (request: Request) => Response | Promise<Response> = () => Response.json({ ok: true }), overrides: Partial<ApiClientOptions> = {}) {
  const requests: Request[] = [];
  const notices: ApiNotice[] = [];
  const onUnauthorized = vi.fn();
  const fetch = vi.fn(async (request: Request) => {
    requests.push(request);
    return respond(request);
  });
  const client = createApiClient<LoosePaths>({
    baseUrl: BASE,
    getAccessToken: () => 'token-123',
    onUnauthorized,
    notify: (n) => notices.push(n),
    fetch,
    ...overrides,
  });
  const last = () => {
    const r = requests.at(-1);
    if (!r) throw new Error('no request was sent');
    return r;
  };
  return { client, requests, notices, onUnauthorized, fetch, last, path: () => new URL(last().url).pathname };
}
