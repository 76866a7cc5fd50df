import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Route, Switch } from 'wouter';
import { CallbackPage } from '../../../src/auth/pages/callback-page';
import { SessionProvider } from '../../../src/auth/session';
import { fakeSession, sessionUser, type FakeSession } from './fake-session';

// The provider sends the browser back to the callback URL with code and state; the session starts there.
function renderCallback(fakes: FakeSession) {
  window.history.replaceState(null, '', '/authentication/callback?code=abc&state=xyz');
  render(
    <SessionProvider logic={fakeSession(fakes)}>
      <Switch>
        <Route path="/authentication/callback">
          <CallbackPage />
        </Route>
        <Route path="/authentication">
          <p>Authentication page</p>
        </Route>
        <Route path="/all/hits">
          <p>Hits page</p>
        </Route>
      </Switch>
    </SessionProvider>,
  );
}

afterEach(() => window.history.replaceState(null, '', '/'));

describe('Callback page', () => {
  it('completes sign-in and returns to the path stored when sign-in started, replacing the callback URL', async () => {
    const before = window.history.length;
    renderCallback({ completeSignIn: async () => ({ user: sessionUser(), redirect: '/all/hits?state=pending' }) });

    expect(await screen.findByText('Hits page')).toBeInTheDocument();
    expect(`${window.location.pathname}${window.location.search}`).toBe('/all/hits?state=pending');
    expect(window.history.length).toBe(before);
  });

  it('goes to Authentication, which picks the home page, when no path was stored', async () => {
    renderCallback({ completeSignIn: async () => ({ user: sessionUser(), redirect: undefined }) });
    expect(await screen.findByText('Authentication page')).toBeInTheDocument();
  });

  it('shows why sign-in failed instead of looping through the identity provider', async () => {
    renderCallback({ completeSignIn: async () => Promise.reject(new Error('State does not match')) });

    expect((await screen.findByRole('alert')).textContent).toBe('State does not match');
    await waitFor(() => expect(window.location.pathname).toBe('/authentication/callback'));
  });
});
