/** The coarse session status the views branch on, read from the session machine's tags. */
import type { SessionSnapshot } from './session.machine';

export type SessionStatus = 'loading' | 'signingIn' | 'signedIn' | 'denied' | 'signingOut';

/**
 * `denied` covers both the spec 5 refusals and a sign-in that could not complete: in both the user sees a
 * message (the snapshot's `context.error`) instead of the app.
 */
export function sessionStatus(snapshot: SessionSnapshot): SessionStatus {
  if (snapshot.hasTag('authenticated')) return 'signedIn';
  if (snapshot.hasTag('refused')) return 'denied';
  if (snapshot.hasTag('signingOut')) return 'signingOut';
  if (snapshot.hasTag('signingIn')) return 'signingIn';
  return 'loading';
}
