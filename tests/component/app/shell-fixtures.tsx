import { render } from '@testing-library/react';
import { vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { Me } from '../../../core/schemas/me';
import { createApiClient } from '../../../src/api/client';
import { ApiContext } from '../../../src/app/api-provider';
import { OrgArea } from '../../../src/app/org-area';
import { ShellSessionContext, type ShellSession } from '../../../src/app/shell-session';
import { storyReader } from '../../../stories/app/story-users';

// The same example users the stories show (no real people or casework).
export { BERGEN, OSLO, RECORD, storyAdmin as adminAll, storyReader as readOnly } from '../../../stories/app/story-users';
export const TROMSO = '33333333-3333-4333-8333-333333333333';

/** The stories' example reader of Oslo with the permissions a test gives (a reviewer, say). */
export const userWith = (permissions: Me['permissions']): Me => ({ ...storyReader, roleName: 'Reviewer', permissions });

/** An API client whose every call goes to `fetch`, signed in with a fixed token. */
export const fakeApiClient = (fetch: (request: Request) => Promise<Response>) =>
  createApiClient({ baseUrl: 'http://locus.test', getAccessToken: () => 'token', onUnauthorized: vi.fn(), notify: vi.fn(), fetch });

/** Draws the signed-in shell at `path` with a fake session; returns the memory history. */
export function renderShell(path: string, session: Partial<ShellSession> & { me: Me }) {
  const [pathname, search = ''] = path.split('?');
  const location = memoryLocation({ path: pathname, searchPath: search, record: true });
  const value: ShellSession = {
    signOut: vi.fn(),
    acceptLicences: vi.fn(async () => undefined),
    ...session,
  };
  // Screens load their data from the API; here the shell is under test, so calls stay pending.
  const api = fakeApiClient(() => new Promise<Response>(() => undefined));
  const ui = (s: ShellSession) => (
    <Router hook={location.hook} searchHook={location.searchHook}>
      <ApiContext.Provider value={api}>
        <ShellSessionContext.Provider value={s}>
          <OrgArea />
        </ShellSessionContext.Provider>
      </ApiContext.Provider>
    </Router>
  );
  const result = render(ui(value));
  return {
    ...result,
    session: value,
    history: location.history,
    navigate: location.navigate,
    current: () => location.history.at(-1),
    rerenderWith: (patch: Partial<ShellSession>) => result.rerender(ui({ ...value, ...patch })),
  };
}
