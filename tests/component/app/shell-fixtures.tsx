import { render } from '@testing-library/react';
import { vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { Me } from '../../../core/schemas/me';
import { OrgArea } from '../../../src/app/org-area';
import { ShellSessionContext, type ShellSession } from '../../../src/app/shell-session';

export const OSLO = '11111111-1111-4111-8111-111111111111';
export const BERGEN = '22222222-2222-4222-8222-222222222222';
export const TROMSO = '33333333-3333-4333-8333-333333333333';
export const RECORD = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';

export const adminAll: Me = {
  id: '99999999-9999-4999-8999-999999999999',
  email: 'ada@lab.example',
  firstName: 'Ada',
  lastName: 'Admin',
  roleName: 'Administrator',
  isAdmin: true,
  scope: 'All',
  organizations: [
    { id: OSLO, name: 'Oslo Laboratory' },
    { id: BERGEN, name: 'Bergen Laboratory' },
  ],
  permissions: {},
  licensesAccepted: true,
};

/** A casework reader in one organization: a "Read-only" access group. */
export const readOnly: Me = {
  id: '88888888-8888-4888-8888-888888888888',
  email: 'rita@lab.example',
  firstName: 'Rita',
  lastName: 'Reader',
  roleName: 'Read-only',
  isAdmin: false,
  scope: 'Organization',
  organizations: [{ id: OSLO, name: 'Oslo Laboratory' }],
  permissions: { Cases: ['Read'], Profiles: ['Read'], Hits: ['Read'], Markers: ['Read'] },
  licensesAccepted: true,
};

/** Draws the signed-in shell at `path` with a fake session; returns the memory history. */
export function renderShell(path: string, session: Partial<ShellSession> & { me: Me }) {
  const [pathname, search = ''] = path.split('?');
  const location = memoryLocation({ path: pathname, searchPath: search, record: true });
  const value: ShellSession = {
    signOut: vi.fn(),
    acceptLicences: vi.fn(async () => undefined),
    ...session,
  };
  const ui = (s: ShellSession) => (
    <Router hook={location.hook} searchHook={location.searchHook}>
      <ShellSessionContext.Provider value={s}>
        <OrgArea />
      </ShellSessionContext.Provider>
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
