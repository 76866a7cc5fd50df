import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Route, Router, Switch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { encodePermissionsClaim, NO_PERMISSIONS_MESSAGE, NO_SCOPE_MESSAGE } from '../../../core/claims';
import { AuthenticationPage } from '../../../src/auth/pages/authentication-page';
import { LoggedOutPage } from '../../../src/auth/pages/logged-out-page';
import { SessionProvider } from '../../../src/auth/session';
import { ORG, analystClaims, fakeSession, sessionUser, type FakeSession } from './fake-session';

function renderAuthentication(path: string, fakes: FakeSession) {
  const location = memoryLocation({ path, record: true });
  render(
    <SessionProvider logic={fakeSession(fakes)}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        <RouteSwitch />
      </Router>
    </SessionProvider>,
  );
  return location;
}

afterEach(() => window.history.replaceState(null, '', '/'));

describe('Authentication page', () => {
  it('shows "No permissions found…" verbatim to a user without permissions', async () => {
    const noPermissions = { ...analystClaims, permissions: encodePermissionsClaim('Nobody', false, {}) };
    renderAuthentication('/authentication', { loadUser: async () => sessionUser({ claims: noPermissions }) });

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(NO_PERMISSIONS_MESSAGE);
  });

  it('shows "No scope is set…" verbatim to a user without a scope level', async () => {
    renderAuthentication('/authentication', { loadUser: async () => sessionUser({ claims: { ...analystClaims, ScopeLevel: undefined } }) });

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(NO_SCOPE_MESSAGE);
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
  });

  it('sends a signed-in user on to the page named in ?redirect=', async () => {
    const location = renderAuthentication('/authentication?redirect=%2Fall%2Fhits%3Fstate%3Dpending', {});
    await waitFor(() => expect(location.history.at(-1)).toBe('/all/hits?state=pending'));
  });

  it("sends a signed-in user without ?redirect= to their first organization's dashboard", async () => {
    const location = renderAuthentication('/authentication', {});
    await waitFor(() => expect(location.history.at(-1)).toBe(`/${ORG}`));
  });

  it('never follows a ?redirect= that leaves the site', async () => {
    const location = renderAuthentication('/authentication?redirect=%2F%2Fevil.example%2F', {});
    await waitFor(() => expect(location.history.at(-1)).toBe(`/${ORG}`));
  });

  it('shows "Signing in…" while the identity provider takes over', async () => {
    renderAuthentication('/authentication', { loadUser: async () => null });
    expect(await screen.findByRole('heading', { name: 'Signing in…' })).toBeInTheDocument();
  });

  it('after signing out, starts a new sign-in that returns to ?redirect=', async () => {
    window.history.replaceState(null, '', '/authentication/logged-out');
    const startSignIn = vi.fn(() => new Promise<void>(() => {}));
    const location = memoryLocation({ path: '/authentication/logged-out', record: true });
    render(
      <SessionProvider logic={fakeSession({ startSignIn })}>
        <Router hook={location.hook} searchHook={location.searchHook}>
          <RouteSwitch />
        </Router>
      </SessionProvider>,
    );
    expect(await screen.findByRole('heading', { name: 'You have signed out.' })).toBeInTheDocument();
    expect(startSignIn).not.toHaveBeenCalled();

    location.navigate('/authentication?redirect=%2Fall');
    await waitFor(() => expect(startSignIn).toHaveBeenCalledWith({ redirect: '/all' }));
  });

  it('lets a refused user sign in again, to pick up newly assigned permissions', async () => {
    const startSignIn = vi.fn(() => new Promise<void>(() => {}));
    renderAuthentication('/authentication', {
      loadUser: async () => sessionUser({ claims: { ...analystClaims, permissions: undefined } }),
      startSignIn,
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in again' }));
    expect(startSignIn).toHaveBeenCalledTimes(1);
  });
});


/** Stands in for the app's routes. */
function RouteSwitch() {
  return (
    <Switch>
      <Route path="/authentication/logged-out">
        <LoggedOutPage />
      </Route>
      <Route path="/authentication">
        <AuthenticationPage />
      </Route>
      <Route>
        <p>Another page</p>
      </Route>
    </Switch>
  );
}
