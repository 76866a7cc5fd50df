import { Suspense } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { AuthenticationPage } from '../auth/pages/authentication-page';
import { CallbackPage } from '../auth/pages/callback-page';
import { LoggedOutPage } from '../auth/pages/logged-out-page';
import { SilentRenewPage } from '../auth/pages/silent-renew-page';
import { RequireSession } from '../auth/require-session';
import { SessionProvider } from '../auth/session';
import { NotificationsProvider } from '../ui/notifications/notifications-provider';
import { ApiProvider } from './api-provider';
import { lazyPage } from './lazy-page';
import { StatusPage } from './pages/status-page';
import { routes } from './routes';
import { SessionBridge } from './session-bridge';

// The signed-in app (layout and every screen) is downloaded after sign-in, not with the sign-in pages.
const OrgArea = lazyPage(() => import('./org-area'), 'OrgArea');

/** Top-level routing: the sign-in flow (spec 2.1) outside the session, everything else under /{orgId}. */
export function AppRoutes() {
  return (
    <Switch>
      <Route path={routes.Root.pattern}>
        <Redirect to={routes.Authentication.href({})} replace />
      </Route>
      <Route path={routes.Authentication.pattern}>
        <AuthenticationPage />
      </Route>
      <Route path={routes.AuthenticationCallback.pattern}>
        <CallbackPage />
      </Route>
      <Route path={routes.AuthenticationSilentRenew.pattern}>
        <SilentRenewPage />
      </Route>
      <Route path={routes.AuthenticationLoggedOut.pattern}>
        <LoggedOutPage />
      </Route>
      <Route path="/authentication/*">
        <StatusPage title="Not found">
          <p>There is no page at this address.</p>
          <p>
            <a href={routes.Authentication.href({})}>Sign in</a>
          </p>
        </StatusPage>
      </Route>
      <Route>
        <RequireSession>
          <SessionBridge>
            <Suspense fallback={<StatusPage title="Loading" busy />}>
              <OrgArea />
            </Suspense>
          </SessionBridge>
        </RequireSession>
      </Route>
    </Switch>
  );
}

export function App() {
  return (
    <NotificationsProvider>
      <SessionProvider>
        <ApiProvider>
          <AppRoutes />
        </ApiProvider>
      </SessionProvider>
    </NotificationsProvider>
  );
}
