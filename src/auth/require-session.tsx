/**
 * Guards every route but the sign-in flow (spec 2.1): while the user is not signed in, any navigation goes to
 * /authentication?redirect=<the original full path>; while the session loads, a quiet "Signing in…".
 */
import { useEffect, type ReactNode } from 'react';
import { useLocation, useSearch } from 'wouter';
import { SigningIn, SigningOut } from './pages/auth-frame';
import { authenticationUrl, isAuthenticationRoute } from './routes';
import { useSessionStatus } from './session';

export function RequireSession({ children }: { children: ReactNode }) {
  const status = useSessionStatus();
  const [path, navigate] = useLocation();
  const search = useSearch();
  // Refused users go there too: the Authentication page shows why.
  const mustSignIn = (status === 'signingIn' || status === 'denied') && !isAuthenticationRoute(path);

  useEffect(() => {
    if (mustSignIn) navigate(authenticationUrl(search ? `${path}?${search}` : path), { replace: true });
  }, [mustSignIn, path, search, navigate]);

  if (status === 'signedIn') return <>{children}</>;
  if (status === 'signingOut') return <SigningOut />;
  return <SigningIn />;
}
