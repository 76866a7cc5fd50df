import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { ReactNode } from 'react';
import type { Me } from '../../../core/schemas/me';
import { AppRoutes } from '../../../src/app/app';
import { ApiProvider } from '../../../src/app/api-provider';
import { NotificationsProvider } from '../../../src/ui/notifications/notifications-provider';
import { OSLO, readOnly } from './shell-fixtures';

// The session is another module's concern: here it is a switchable fake (vi.mock is hoisted above the imports).
const session = vi.hoisted(() => ({
  status: 'signedIn' as string,
  me: null as Me | null,
  actions: { signOut: vi.fn(), reportUnauthorized: vi.fn(), licensesAccepted: vi.fn() },
}));

vi.mock('../../../src/auth/session', () => ({
  SessionProvider: ({ children }: { children: ReactNode }) => <>{children}</>,
  useSessionStatus: () => session.status,
  useMe: () => session.me,
  useSessionError: () => null,
  useSessionActions: () => session.actions,
  getAccessToken: () => 'token-abc',
}));
vi.mock('../../../src/auth/require-session', () => ({
  RequireSession: ({ children }: { children: ReactNode }) => (session.status === 'signedIn' ? <>{children}</> : <p>Signing in…</p>),
}));
vi.mock('../../../src/auth/pages/authentication-page', () => ({ AuthenticationPage: () => <h1>Authentication page</h1> }));
vi.mock('../../../src/auth/pages/callback-page', () => ({ CallbackPage: () => <h1>Callback page</h1> }));
vi.mock('../../../src/auth/pages/silent-renew-page', () => ({ SilentRenewPage: () => <h1>Silent renew page</h1> }));
vi.mock('../../../src/auth/pages/logged-out-page', () => ({ LoggedOutPage: () => <h1>Logged out page</h1> }));

function renderApp(path: string) {
  const location = memoryLocation({ path, record: true });
  render(
    <NotificationsProvider>
      <ApiProvider>
        <Router hook={location.hook} searchHook={location.searchHook}>
          <AppRoutes />
        </Router>
      </ApiProvider>
    </NotificationsProvider>,
  );
  return { current: () => location.history.at(-1) };
}

beforeEach(() => {
  session.status = 'signedIn';
  session.me = readOnly;
  vi.clearAllMocks();
});
afterEach(() => vi.unstubAllGlobals());

describe('top-level routes', () => {
  it('the root path goes to /authentication', () => {
    const app = renderApp('/');
    expect(app.current()).toBe('/authentication');
    expect(screen.getByRole('heading', { name: 'Authentication page' })).toBeInTheDocument();
  });

  it.each([
    ['/authentication/callback', 'Callback page'],
    ['/authentication/silent-renew', 'Silent renew page'],
    ['/authentication/logged-out', 'Logged out page'],
  ])('%s renders the sign-in flow page', (path, heading) => {
    renderApp(path);
    expect(screen.getByRole('heading', { name: heading })).toBeInTheDocument();
  });

  it('an unknown sign-in path is Not found', () => {
    renderApp('/authentication/nope');
    expect(screen.getByRole('heading', { name: 'Not found' })).toBeInTheDocument();
  });

  it('organization routes need the session', () => {
    session.status = 'signingIn';
    renderApp(`/${OSLO}/cases`);
    expect(screen.getByText('Signing in…')).toBeInTheDocument();
    expect(screen.queryByRole('banner')).not.toBeInTheDocument();
  });

  it('signed in, an organization route renders inside the layout', async () => {
    renderApp(`/${OSLO}/cases`);
    // The signed-in area and each page load on first use (lazyPage).
    expect(await screen.findByRole('heading', { level: 1, name: 'Cases' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
  });

  it('an unknown organization path is Not found', () => {
    renderApp(`/${OSLO}/nowhere`);
    expect(screen.getByRole('heading', { level: 1, name: 'Not found' })).toBeInTheDocument();
  });

  it('I accept posts to /api/accept-licenses with the token and XSRF header, then tells the session', async () => {
    session.me = { ...readOnly, licensesAccepted: false };
    document.cookie = 'XSRF-TOKEN=xsrf-1';
    const fetch = vi.fn(async (_request: Request) => Response.json({ ...readOnly }));
    vi.stubGlobal('fetch', fetch);
    renderApp(`/${OSLO}`);
    await userEvent.click(screen.getByRole('button', { name: 'I accept' }));
    await waitFor(() => expect(session.actions.licensesAccepted).toHaveBeenCalledTimes(1));
    const request = fetch.mock.calls[0]![0];
    expect(request.method).toBe('POST');
    expect(new URL(request.url).pathname).toBe('/api/accept-licenses');
    expect(request.headers.get('Authorization')).toBe('Bearer token-abc');
    expect(request.headers.get('X-XSRF-TOKEN')).toBe('xsrf-1');
  });

  it('a 401 from the API is reported to the session, and the licence stays', async () => {
    session.me = { ...readOnly, licensesAccepted: false };
    vi.stubGlobal('fetch', vi.fn(async () => Response.json({ error: 'expired' }, { status: 401 })));
    renderApp(`/${OSLO}`);
    await userEvent.click(screen.getByRole('button', { name: 'I accept' }));
    await waitFor(() => expect(session.actions.reportUnauthorized).toHaveBeenCalledTimes(1));
    expect(session.actions.licensesAccepted).not.toHaveBeenCalled();
    expect(await screen.findByRole('button', { name: 'I accept' })).toBeEnabled();
  });

  it('a 403 from the API shows the permission notification', async () => {
    session.me = { ...readOnly, licensesAccepted: false };
    vi.stubGlobal('fetch', vi.fn(async () => Response.json({ error: 'no' }, { status: 403 })));
    renderApp(`/${OSLO}`);
    await userEvent.click(screen.getByRole('button', { name: 'I accept' }));
    expect(await screen.findByText('You do not have permission to perform this action.')).toBeInTheDocument();
  });
});
