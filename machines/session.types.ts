/** The session machine's words (session.machine.ts): where it starts, what it keeps, what it hears, what it tags. */
import type { LocusClaims, SignedInUser } from '../core/claims';
import type { Me } from '../core/schemas/me';

/** Which page the SPA was loaded on; the sign-in flow pages each start the machine differently. */
export type SessionLocation = 'app' | 'callback' | 'silentRenew' | 'loggedOut';

export interface SessionInput {
  location: SessionLocation;
  /** The full path (with query) to return to after sign-in; absent on the sign-in flow pages themselves. */
  redirect?: string;
}

/** What the machine needs to know about the tokens the identity provider issued (built at the edge from an oidc-client-ts User). */
export interface SessionUser {
  accessToken: string;
  /** Seconds since the epoch, as oidc-client-ts keeps it. */
  expiresAt: number | null;
  /** Decided at the edge when the user was read, so the machine needs no clock. */
  expired: boolean;
  /** OAuth scopes the access token carries. */
  scopes: readonly string[];
  /** Claims of the access token (spec 3); checked with core/claims.ts `checkClaims`. */
  claims: LocusClaims;
}

export interface CompletedSignIn {
  user: SessionUser;
  /** The path stored in the oidc state by `startSignIn`. */
  redirect: string | undefined;
}

/** Thrown by `fetchMe` when the API answers 401: the token is not accepted, so sign-in restarts (spec 8.1). */
export class SessionUnauthorizedError extends Error {
  override readonly name = 'SessionUnauthorizedError';
  constructor(message = 'The API did not accept the access token (401).') {
    super(message);
  }
}

/**
 * Shown instead of looping through the identity provider when a token just issued by a fresh sign-in
 * still lacks the API scope or is refused by the API: another redirect would come back the same.
 */
export const SIGN_IN_NOT_ACCEPTED_MESSAGE =
  'Sign-in did not grant access to Locus. Contact your administrator and ask them to check your account.';

export interface SessionContext {
  location: SessionLocation;
  redirect: string | undefined;
  accessToken: string | null;
  expiresAt: number | null;
  scopes: readonly string[];
  claims: LocusClaims | null;
  /** The signed-in user as the token describes them (core/claims.ts). */
  user: SignedInUser | null;
  /** The user as the server's database knows them (GET /api/me). */
  me: Me | null;
  /** The last error: the verbatim denied message in `denied`, the failure in `failed`, or what went wrong last. */
  error: string | null;
  /** How the current token was obtained; a token from a fresh sign-in is not worth another redirect. */
  source: 'stored' | 'signIn' | 'renewed' | null;
}

export type SessionEvent =
  /** The token expires soon: 60 s before expiry (spec 9), or a third of a shorter lifetime (src/auth/session-actors.ts). */
  | { type: 'token.expiring' }
  | { type: 'token.expired' }
  /** oidc-client-ts silentRenewError (only raised by its own automatic renew, which Locus leaves off). */
  | { type: 'token.renewFailed'; error: unknown }
  /** A 401 seen by the API client. */
  | { type: 'api.unauthorized' }
  /** The identity provider reports the session ended elsewhere (oidc-client-ts userSignedOut). */
  | { type: 'session.ended' }
  | { type: 'session.signIn'; redirect?: string }
  | { type: 'session.retry' }
  | { type: 'session.signOut' }
  | { type: 'licenses.accepted' };

/** Tags the views ask with hasTag (src/auth/session.tsx maps them to SessionStatus). */
export type SessionTag = 'busy' | 'authenticated' | 'signingIn' | 'refused' | 'signingOut';

export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return 'Unknown error';
}

export interface LogErrorParams {
  message: string;
  error?: unknown;
}
