import { render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Route, Switch } from 'wouter';
import { CallbackPage } from '../../../src/auth/pages/callback-page';
import { SessionProvider } from '../../../src/auth/session';
import { fakeSession, sessionUser } from './fake-session';

afterEach(() => window.history.replaceState(null, '', '/'));

describe('SessionProvider under React StrictMode (as src/main.tsx renders the app)', () => {
  // StrictMode starts the session's invoked actors twice; the live completeSignIn reuses its first result.
  it('completes sign-in and returns to the stored path', async () => {
    window.history.replaceState(null, '', '/authentication/callback?code=abc&state=xyz');
    const completeSignIn = vi.fn(async () => ({ user: sessionUser(), redirect: '/all/hits' }));
    render(
      <StrictMode>
        <SessionProvider logic={fakeSession({ completeSignIn })}>
          <Switch>
            <Route path="/authentication/callback">
              <CallbackPage />
            </Route>
            <Route path="/all/hits">
              <p>Hits page</p>
            </Route>
          </Switch>
        </SessionProvider>
      </StrictMode>,
    );
    expect(await screen.findByText('Hits page')).toBeInTheDocument();
    expect(`${window.location.pathname}${window.location.search}`).toBe('/all/hits');
  });
});
