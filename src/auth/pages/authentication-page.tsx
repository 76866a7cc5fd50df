/**
 * /authentication (spec 2.1): performs sign-in, then goes to `?redirect=` or the user's first organization.
 * The machine starts sign-in by itself when the page is loaded without a user; after sign-out it waits for this page.
 */
import { useEffect } from 'react';
import { useLocation, useSearch } from 'wouter';
import { homePath, safeRedirect } from '../routes';
import { useMe, useSessionStatus } from '../session';
import { useSessionActorRef, useSessionSelector } from '../session-context';
import { SessionRefused, SigningIn, SigningOut } from './auth-frame';

export function AuthenticationPage() {
  const status = useSessionStatus();
  const me = useMe();
  const session = useSessionActorRef();
  const canSignIn = useSessionSelector((s) => s.can({ type: 'session.signIn' }));
  const search = useSearch();
  const [, navigate] = useLocation();
  const redirect = safeRedirect(new URLSearchParams(search).get('redirect'));

  useEffect(() => {
    if (status === 'signedIn') navigate(redirect ?? homePath(me), { replace: true });
  }, [status, redirect, me, navigate]);

  useEffect(() => {
    if (canSignIn) session.send({ type: 'session.signIn', redirect });
  }, [canSignIn, redirect, session]);

  if (status === 'denied') return <SessionRefused />;
  if (status === 'signingOut') return <SigningOut />;
  return <SigningIn />;
}
