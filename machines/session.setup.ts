/**
 * What the session machine may do (session.machine.ts): its injected actors, its actions on the context,
 * its guards and its delays, so the chart refers to each by name.
 */
import { assign, fromCallback, fromPromise, setup, type EventObject } from 'xstate';
import { API_SCOPE, checkClaims } from '../core/claims';
import type { Me } from '../core/schemas/me';
import { errorMessage, SessionUnauthorizedError, type CompletedSignIn, type LogErrorParams, type SessionContext, type SessionEvent, type SessionInput, type SessionTag, type SessionUser } from './session.types';

const notProvided = async (): Promise<never> => {
  throw new Error('This session actor is provided at the edge (src/auth/session-actors.ts).');
};

/** Everything the session knew of the signed-in user, cleared. */
export const forgetSession = {
  accessToken: null,
  expiresAt: null,
  scopes: [] as readonly string[],
  claims: null,
  user: null,
  me: null,
} satisfies Partial<SessionContext>;

export const sessionSetup = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
    tags: {} as SessionTag,
  },
  actors: {
    loadUser: fromPromise<SessionUser | null>(notProvided),
    completeSignIn: fromPromise<CompletedSignIn>(notProvided),
    startSignIn: fromPromise<void, { redirect: string | undefined }>(notProvided),
    fetchMe: fromPromise<Me, { accessToken: string }>(notProvided),
    renewSilently: fromPromise<SessionUser | null>(notProvided),
    signOut: fromPromise<void>(notProvided),
    completeSignOut: fromPromise<void>(notProvided),
    // Without a watcher the machine simply hears no token events; the edge wires oidc-client-ts's.
    watchTokens: fromCallback<EventObject>(() => undefined),
  },
  actions: {
    logError: (_, _params: LogErrorParams) => {},
    storeTokens: assign((_, params: { user: SessionUser; source: NonNullable<SessionContext['source']> }) => ({
      accessToken: params.user.accessToken,
      expiresAt: params.user.expiresAt,
      scopes: params.user.scopes,
      claims: params.user.claims,
      source: params.source,
    })),
    storeRedirect: assign((_, params: { redirect: string | undefined }) => ({ redirect: params.redirect })),
    // A restart from inside the app returns to wherever the user is now (the edge reads the location).
    forgetRedirect: assign({ redirect: undefined }),
    forgetSession: assign(forgetSession),
    storeUser: assign(({ context }) => {
      const check = context.claims ? checkClaims(context.claims) : null;
      return { user: check?.ok ? check.user : null };
    }),
    storeDenial: assign(({ context }) => {
      const check = context.claims ? checkClaims(context.claims) : null;
      return { error: check && !check.ok ? check.error : null };
    }),
    storeMe: assign((_, params: { me: Me }) => ({ me: params.me, error: null })),
    storeError: assign((_, params: { error: unknown }) => ({ error: errorMessage(params.error) })),
    storeMessage: assign((_, params: { message: string }) => ({ error: params.message })),
  },
  guards: {
    atSignInCallback: ({ context }) => context.location === 'callback',
    inSilentRenewFrame: ({ context }) => context.location === 'silentRenew',
    afterSignOut: ({ context }) => context.location === 'loggedOut',
    hasUnexpiredUser: (_, params: { user: SessionUser | null }) => params.user !== null && !params.user.expired,
    hasUser: (_, params: { user: SessionUser | null }) => params.user !== null,
    lacksApiScope: ({ context }) => !context.scopes.includes(API_SCOPE),
    claimsRejected: ({ context }) => context.claims === null || !checkClaims(context.claims).ok,
    isFreshSignIn: ({ context }) => context.source === 'signIn',
    isUnauthorized: (_, params: { error: unknown }) => params.error instanceof SessionUnauthorizedError,
    // A 401 for a token that did not just come from the provider: signing in again should help.
    isRefusedStoredToken: ({ context }, params: { error: unknown }) =>
      params.error instanceof SessionUnauthorizedError && context.source !== 'signIn',
  },
  delays: {
    /** Spec 9: silent request timeout 10 s. */
    renewTimeout: 10_000,
    /** Spec 8.2 / 9: a timed-out silent renew is retried after 5 s. */
    renewRetryDelay: 5_000,
  },
});
