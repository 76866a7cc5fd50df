/**
 * The frame of the sign-in flow pages: a card outside the app layout (the theme's status-page styles),
 * and the message shown when the session refuses the user.
 */
import type { ReactNode } from 'react';
import { useSessionActions, useSessionError } from '../session';
import { useSessionActorRef, useSessionSelector } from '../session-context';

export function AuthFrame({ title, busy = false, children }: { title: string; busy?: boolean; children?: ReactNode }) {
  return (
    <main className="status-page" aria-busy={busy}>
      <div className="status-page__card">
        <p className="status-page__brand">Locus</p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}

/** Denied (spec 5 message, verbatim) or a sign-in that could not complete; the user may try again or sign out. */
export function SessionRefused() {
  const error = useSessionError();
  const { signOut } = useSessionActions();
  const session = useSessionActorRef();
  const canRetry = useSessionSelector((s) => s.can({ type: 'session.retry' }));
  return (
    <AuthFrame title="Sign-in refused">
      <p role="alert">{error ?? 'Sign-in did not complete.'}</p>
      <p>
        {canRetry && (
          <button type="button" className="button button--primary" onClick={() => session.send({ type: 'session.retry' })}>
            Sign in again
          </button>
        )}{' '}
        <button type="button" className="button button--secondary" onClick={signOut}>
          Sign out
        </button>
      </p>
    </AuthFrame>
  );
}

export function SigningIn() {
  return <AuthFrame title="Signing in…" busy />;
}

export function SigningOut() {
  return <AuthFrame title="Signing out…" busy />;
}
