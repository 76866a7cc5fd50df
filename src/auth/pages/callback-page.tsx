/**
 * /authentication/callback: the session machine completes sign-in (it was started on this URL); this page
 * returns to the path kept in the sign-in state, or to Authentication, which picks the user's home.
 */
import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { AUTHENTICATION_PATH, safeRedirect } from '../routes';
import { useSessionStatus } from '../session';
import { useSessionSelector } from '../session-context';
import { SessionRefused, SigningIn } from './auth-frame';

export function CallbackPage() {
  const status = useSessionStatus();
  const redirect = useSessionSelector((s) => s.context.redirect);
  const [, navigate] = useLocation();

  useEffect(() => {
    // replace: the callback URL (code, state) must not stay in history, where "back" would replay it.
    if (status === 'signedIn') navigate(safeRedirect(redirect) ?? AUTHENTICATION_PATH, { replace: true });
  }, [status, redirect, navigate]);

  if (status === 'denied') return <SessionRefused />;
  return <SigningIn />;
}
