/**
 * The live effects of machines/session.machine.ts: oidc-client-ts for sign-in and tokens, fetch for GET /api/me,
 * and the UserManager events the machine listens to while signed in.
 */
import { decodeJwt } from 'jose';
import type { User, UserManager } from 'oidc-client-ts';
import { fromCallback, fromPromise, type AnyEventObject } from 'xstate';
import type { LocusClaims } from '../../core/claims';
import { Me } from '../../core/schemas/me';
import {
  SessionUnauthorizedError,
  type CompletedSignIn,
  type LogErrorParams,
  type SessionEvent,
  type SessionUser,
} from '../../machines/session.machine';
import { LOGGED_OUT_PATH, returnPathFrom, safeRedirect } from './routes';
import { getUserManager } from './user-manager';

/** Spec 9: the expiring notice comes 60 s before expiry. */
const EXPIRING_NOTICE_SECONDS = 60;

/**
 * Seconds before expiry to renew a token that lives `lifetime` seconds: spec 9's 60, or a third of a
 * shorter lifetime. oidc-client-ts's fixed notice would fire a 60 s token's renewal the second it arrives,
 * and so renew every second.
 */
export function renewalNoticeSeconds(lifetime: number): number {
  return Math.min(EXPIRING_NOTICE_SECONDS, lifetime / 3);
}

/** A token's whole lifetime: exp − iat of a JWT, else (an opaque token) the time it has left now. */
function lifetimeOf(user: User): number | undefined {
  const payload = accessTokenPayload(user.access_token);
  if (typeof payload?.exp === 'number' && typeof payload.iat === 'number') return payload.exp - payload.iat;
  return user.expires_in;
}

const REQUEST_FAILED = 'Your request failed. Please try again later.';
const FORBIDDEN = 'You do not have permission to perform this action.';

function accessTokenPayload(token: string): Record<string, unknown> | null {
  try {
    return decodeJwt(token);
  } catch {
    return null; // an opaque access token: fall back to the ID token claims
  }
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function organizations(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return typeof value === 'string' ? [value] : undefined; // some providers flatten a one-element array
}

/** The machine's view of an oidc-client-ts User: the access token's claims and scopes, read once here. */
export function toSessionUser(user: User): SessionUser {
  const payload = accessTokenPayload(user.access_token);
  const profile = user.profile as Record<string, unknown>;
  const claim = (name: string) => payload?.[name] ?? profile[name];
  const claims: LocusClaims = {
    sub: text(claim('sub')) ?? user.profile.sub,
    permissions: text(claim('permissions')),
    ScopeLevel: text(claim('ScopeLevel')),
    organization: organizations(claim('organization')),
  };
  // The scope the API will see is the one inside the token; the token response's scope is the fallback.
  const tokenScope = text(payload?.scope);
  return {
    accessToken: user.access_token,
    expiresAt: user.expires_at ?? null,
    expired: user.expired === true,
    scopes: tokenScope ? tokenScope.split(' ').filter(Boolean) : user.scopes,
    claims,
  };
}

function redirectFromState(state: unknown): string | undefined {
  return typeof state === 'object' && state !== null ? safeRedirect((state as { redirect?: unknown }).redirect) : undefined;
}

/** What the live actors reach outside themselves; tests of this file can pass fakes. */
export interface SessionEdge {
  userManager: () => Promise<UserManager>;
  fetch: typeof fetch;
  location: () => Pick<Location, 'pathname' | 'search' | 'hash'>;
  assign: (url: string) => void;
  log: (message: string, error?: unknown) => void;
}

const browserEdge: SessionEdge = {
  userManager: getUserManager,
  fetch: (...args) => fetch(...args),
  location: () => window.location,
  assign: (url) => window.location.assign(url),
  // Spec 4: session failures are logged; the browser console is the log the SPA has.
  log: (message, error) => console.error(`[session] ${message}`, error ?? ''),
};

async function readMe(edge: SessionEdge, accessToken: string, signal: AbortSignal): Promise<Me> {
  let response: Response;
  try {
    response = await edge.fetch('/api/me', { headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/json' }, signal });
  } catch (cause) {
    throw new Error(REQUEST_FAILED, { cause });
  }
  if (response.status === 401) throw new SessionUnauthorizedError();
  if (response.status === 403) throw new Error(FORBIDDEN, { cause: { status: 403 } });
  if (!response.ok) throw new Error(REQUEST_FAILED, { cause: { status: response.status } });
  const parsed = Me.safeParse(await response.json().catch(() => null));
  if (!parsed.success) throw new Error(REQUEST_FAILED, { cause: parsed.error });
  return parsed.data;
}

/** The live actors and actions for `sessionMachine.provide(...)`. */
export function createSessionImplementations(edge: SessionEdge = browserEdge) {
  // The callback's state can be used only once; a second start of the same actor (React StrictMode) reuses the first result.
  let signInCallback: Promise<CompletedSignIn> | undefined;

  return {
    actors: {
      loadUser: fromPromise<SessionUser | null>(async () => {
        const user = await (await edge.userManager()).getUser();
        return user ? toSessionUser(user) : null;
      }),

      completeSignIn: fromPromise<CompletedSignIn>(() => {
        signInCallback ??= (async () => {
          const user = await (await edge.userManager()).signinCallback();
          if (!user) throw new Error('The sign-in response carried no user.');
          return { user: toSessionUser(user), redirect: redirectFromState(user.state) };
        })();
        return signInCallback;
      }),

      startSignIn: fromPromise<void, { redirect: string | undefined }>(async ({ input }) => {
        // Read before anything awaits: the views may already be moving to /authentication.
        const redirect = input.redirect ?? returnPathFrom(edge.location());
        const manager = await edge.userManager();
        // A token that failed a check must not be found again when the browser comes back.
        await manager.removeUser();
        // The callback page reads the return path back from this state (spec 2.1).
        await manager.signinRedirect({ state: { redirect } });
      }),

      fetchMe: fromPromise<Me, { accessToken: string }>(({ input, signal }) => readMe(edge, input.accessToken, signal)),

      // Uses the refresh token when there is one, else the silent-renew iframe.
      renewSilently: fromPromise<SessionUser | null>(async () => {
        const user = await (await edge.userManager()).signinSilent();
        return user ? toSessionUser(user) : null;
      }),

      signOut: fromPromise<void>(async () => {
        const manager = await edge.userManager();
        // Revocation failing must not keep the user signed in.
        await manager.revokeTokens().catch((error: unknown) => edge.log('Token revocation failed', error));
        try {
          await manager.signoutRedirect();
        } catch (error) {
          // No end-session endpoint (or it failed): sign out here at least.
          await manager.removeUser();
          edge.assign(LOGGED_OUT_PATH);
          throw error;
        }
      }),

      completeSignOut: fromPromise<void>(async () => {
        // Only an end-session redirect carries state; a direct visit to the page has nothing to finish.
        if (!new URLSearchParams(edge.location().search).has('state')) return;
        await (await edge.userManager()).signoutCallback();
      }),

      watchTokens: fromCallback<AnyEventObject>(({ sendBack }) => {
        const send = (event: SessionEvent) => sendBack(event);
        let removers: Array<() => void> = [];
        let stopped = false;
        let renewal: ReturnType<typeof setTimeout> | undefined;
        // One renewal per token, renewalNoticeSeconds before it expires (at once when that time has passed).
        const scheduleRenewal = (user: User | null) => {
          clearTimeout(renewal);
          const left = user?.expires_in;
          if (stopped || !user || left === undefined) return;
          const due = left - renewalNoticeSeconds(lifetimeOf(user) ?? left);
          renewal = setTimeout(() => send({ type: 'token.expiring' }), Math.max(0, due) * 1000);
        };
        void edge
          .userManager()
          .then(async (manager) => {
            if (stopped) return;
            removers = [
              // A renewed token is stored, and loaded, before the machine hears of it.
              manager.events.addUserLoaded(scheduleRenewal),
              manager.events.addAccessTokenExpired(() => send({ type: 'token.expired' })),
              manager.events.addSilentRenewError((error) => send({ type: 'token.renewFailed', error })),
              manager.events.addUserSignedOut(() => send({ type: 'session.ended' })),
            ];
            scheduleRenewal(await manager.getUser());
          })
          .catch((error: unknown) => edge.log('Could not watch token events', error));
        return () => {
          stopped = true;
          clearTimeout(renewal);
          removers.forEach((remove) => remove());
        };
      }),
    },
    actions: {
      logError: (_: unknown, params: LogErrorParams) => edge.log(params.message, params.error),
    },
  };
}

/** The silent-renew page: hands the provider's response to the parent window's signinSilent. */
export async function completeSilentRenew(userManager: () => Promise<UserManager> = getUserManager): Promise<void> {
  await (await userManager()).signinSilentCallback();
}
