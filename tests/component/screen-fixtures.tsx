import { render } from '@testing-library/react';
import { vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { Me } from '../../core/schemas/me';
import { createApiClient, type ApiNotice } from '../../src/api/client';
import { ApiContext } from '../../src/app/api-provider';
import { OrgArea } from '../../src/app/org-area';
import { ShellSessionContext } from '../../src/app/shell-session';
import { RECORD_NAMES } from '../../src/app/feature-areas';
import type { TestApp } from '../helpers/app';

/**
 * Screens under test talk to the real server (Fastify + PGlite) in-process: the API client's
 * fetch is `app.inject`, so forms, tables and permissions are exercised end to end without a port.
 */
export function injectFetch(t: TestApp) {
  return async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : Buffer.from(await request.arrayBuffer());
    const res = await t.app.inject({
      method: request.method as 'GET',
      url: url.pathname + url.search,
      headers: Object.fromEntries(request.headers.entries()),
      ...(body && body.length > 0 ? { payload: body } : {}),
    });
    const status = res.statusCode;
    const headers = new Headers();
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : String(v));
    return new Response(status === 204 || status === 304 ? null : new Uint8Array(res.rawPayload), { status, headers });
  };
}

/** Draws the signed-in app at `path` as the user `token` stands for, against the in-process server. */
export function renderScreen(path: string, opts: { t: TestApp; token: string; me: Me; notify?: (notice: ApiNotice) => void }) {
  const [pathname, search = ''] = path.split('?');
  const location = memoryLocation({ path: pathname, searchPath: search, record: true });
  const notify = opts.notify ?? vi.fn<(notice: ApiNotice) => void>();
  const api = createApiClient({
    baseUrl: 'http://locus.test',
    getAccessToken: () => opts.token,
    onUnauthorized: vi.fn(),
    notify,
    fetch: injectFetch(opts.t),
  });
  const session = {
    me: opts.me,
    signOut: vi.fn(),
    acceptLicences: vi.fn(async () => undefined),
    lookupName: ({ routeName, id, params }: { routeName: string; id: string; params: Readonly<Record<string, string>> }) =>
      RECORD_NAMES[routeName as keyof typeof RECORD_NAMES]?.(api, id, params),
  };
  const result = render(
    <Router hook={location.hook} searchHook={location.searchHook}>
      <ApiContext.Provider value={api}>
        <ShellSessionContext.Provider value={session}>
          <OrgArea />
        </ShellSessionContext.Provider>
      </ApiContext.Provider>
    </Router>,
  );
  return { ...result, api, notify, current: () => location.history.at(-1), history: () => [...location.history], navigate: location.navigate };
}

/** The signed-in user, licence accepted, as the session holds them after sign-in. */
export async function meOf(t: TestApp, token: string): Promise<Me> {
  const res = await t.app.inject({ method: 'POST', url: '/api/accept-licenses', headers: { authorization: `Bearer ${token}` } });
  if (res.statusCode !== 200) throw new Error(`POST /api/accept-licenses answered ${res.statusCode}`);
  return res.json() as Me;
}
