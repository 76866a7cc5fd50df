import { act, render, renderHook, screen, waitFor } from '@testing-library/react';
import { StrictMode, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoggedOutPage } from '../../../src/auth/pages/logged-out-page';
import { SilentRenewPage } from '../../../src/auth/pages/silent-renew-page';
import { authenticationUrl, homePath, returnPathFrom, safeRedirect, sessionInputFrom } from '../../../src/auth/routes';
import { SessionProvider, getAccessToken, useMe, useSessionActions, useSessionError, useSessionStatus } from '../../../src/auth/session';
import { ORG, analystClaims, fakeSession, me, sessionUser, type FakeSession } from './fake-session';

function renderSession(fakes: FakeSession = {}) {
  const wrapper = ({ children }: { children: ReactNode }) => <SessionProvider logic={fakeSession(fakes)}>{children}</SessionProvider>;
  return renderHook(
    () => ({ status: useSessionStatus(), me: useMe(), error: useSessionError(), actions: useSessionActions() }),
    { wrapper },
  );
}

afterEach(() => window.history.replaceState(null, '', '/'));

describe('session hooks', () => {
  it('reads loading, then signed in with the user from GET /api/me', async () => {
    const { result } = renderSession();
    expect(result.current.status).toBe('loading');
    expect(result.current.me).toBeNull();
    await waitFor(() => expect(result.current.status).toBe('signedIn'));
    expect(result.current.me).toEqual(me);
    expect(result.current.error).toBeNull();
  });

  it('gives the API client the access token only while signed in, and nothing once the provider is gone', async () => {
    const { result, unmount } = renderSession();
    expect(getAccessToken()).toBeUndefined();
    await waitFor(() => expect(result.current.status).toBe('signedIn'));
    expect(getAccessToken()).toBe('token-1');
    unmount();
    expect(getAccessToken()).toBeUndefined();
  });

  it('reports the denied message and no user', async () => {
    const { result } = renderSession({ loadUser: async () => sessionUser({ claims: { ...analystClaims, permissions: undefined } }) });
    await waitFor(() => expect(result.current.status).toBe('denied'));
    expect(result.current.error).toMatch(/^No permissions found\./);
    expect(result.current.me).toBeNull();
    expect(getAccessToken()).toBeUndefined();
  });

  it('a 401 reported by the API client takes the token away and restarts sign-in', async () => {
    const startSignIn = vi.fn(() => new Promise<void>(() => {}));
    const { result } = renderSession({ startSignIn });
    await waitFor(() => expect(result.current.status).toBe('signedIn'));

    act(() => result.current.actions.reportUnauthorized());
    expect(result.current.status).toBe('signingIn');
    expect(getAccessToken()).toBeUndefined();
    await waitFor(() => expect(startSignIn).toHaveBeenCalledTimes(1));
  });

  it('signing out shows "signingOut" and hands over to the provider', async () => {
    const signOut = vi.fn(() => new Promise<void>(() => {}));
    const { result } = renderSession({ signOut });
    await waitFor(() => expect(result.current.status).toBe('signedIn'));

    act(() => result.current.actions.signOut());
    expect(result.current.status).toBe('signingOut');
    await waitFor(() => expect(signOut).toHaveBeenCalledTimes(1));
  });

  it('accepting licenses re-reads the user', async () => {
    const fetchMe = vi.fn(async () => me).mockResolvedValueOnce({ ...me, licensesAccepted: false });
    const { result } = renderSession({ fetchMe });
    await waitFor(() => expect(result.current.me?.licensesAccepted).toBe(false));

    act(() => result.current.actions.licensesAccepted());
    await waitFor(() => expect(result.current.me?.licensesAccepted).toBe(true));
    expect(result.current.status).toBe('signedIn');
  });
});

describe('sign-in routes', () => {
  it('starts the session according to the page the SPA was loaded on', () => {
    expect(sessionInputFrom({ pathname: '/authentication/callback', search: '?code=1&state=2', hash: '' })).toEqual({ location: 'callback' });
    expect(sessionInputFrom({ pathname: '/authentication/silent-renew', search: '?code=1', hash: '' })).toEqual({ location: 'silentRenew' });
    expect(sessionInputFrom({ pathname: '/authentication/logged-out', search: '', hash: '' })).toEqual({ location: 'loggedOut' });
    expect(sessionInputFrom({ pathname: `/${ORG}/cases`, search: '?tab=open', hash: '#top' })).toEqual({
      location: 'app',
      redirect: `/${ORG}/cases?tab=open#top`,
    });
    expect(sessionInputFrom({ pathname: '/authentication', search: '?redirect=%2Fall%2Fhits', hash: '' })).toEqual({
      location: 'app',
      redirect: '/all/hits',
    });
    expect(sessionInputFrom({ pathname: '/authentication', search: '', hash: '' })).toEqual({ location: 'app' });
  });

  it('accepts only paths on this site as return targets', () => {
    expect(safeRedirect('/all/hits?x=1')).toBe('/all/hits?x=1');
    for (const unsafe of ['https://evil.example', '//evil.example/x', '/\\evil.example', 'all', '', null, 42]) expect(safeRedirect(unsafe)).toBeUndefined();
    expect(returnPathFrom({ pathname: '/authentication', search: '?redirect=https%3A%2F%2Fevil.example', hash: '' })).toBeUndefined();
  });

  it('builds the Authentication URL and the home path', () => {
    expect(authenticationUrl('/a/b?c=d&e=f')).toBe('/authentication?redirect=%2Fa%2Fb%3Fc%3Dd%26e%3Df');
    expect(authenticationUrl(undefined)).toBe('/authentication');
    expect(homePath(me)).toBe(`/${ORG}`);
    expect(homePath({ organizations: [] })).toBe('/all');
  });
});

describe('Silent renew page', () => {
  it('hands the response to the parent window once, and shows nothing', () => {
    const complete = vi.fn(async () => undefined);
    const { container } = render(
      <StrictMode>
        <SilentRenewPage complete={complete} />
      </StrictMode>,
    );
    expect(complete).toHaveBeenCalledTimes(1);
    expect(container).toBeEmptyDOMElement();
  });
});

describe('Logged-out page', () => {
  it('says the user has signed out and offers to sign in again', () => {
    render(<LoggedOutPage />);
    expect(screen.getByRole('heading', { name: 'You have signed out.' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in again' })).toHaveAttribute('href', '/authentication');
  });
});
