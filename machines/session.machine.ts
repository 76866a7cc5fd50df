/**
 * The sign-in session (product-spec 4 "Session", 5, 8.2, 9): load or complete sign-in, check the token,
 * read permissions, renew silently before expiry, restart sign-in when anything about the token fails.
 * Pure: every effect (oidc-client-ts, fetch, navigation, logging) is an injected actor or action,
 * provided by src/auth/session-actors.ts in the app and by fakes in tests.
 */
import { and, assign, fromCallback, fromPromise, setup, type ActorRefFrom, type EventObject, type SnapshotFrom } from 'xstate';
import { API_SCOPE, checkClaims, type LocusClaims, type SignedInUser } from '../core/claims';
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

const notProvided = async (): Promise<never> => {
  throw new Error('This session actor is provided at the edge (src/auth/session-actors.ts).');
};

export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return 'Unknown error';
}

export interface LogErrorParams {
  message: string;
  error?: unknown;
}

const forgetSession = {
  accessToken: null,
  expiresAt: null,
  scopes: [] as readonly string[],
  claims: null,
  user: null,
  me: null,
} satisfies Partial<SessionContext>;

const sessionSetup = setup({
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

/** One silent-renew attempt: the first and the retry share every outcome but the timeout's. */
const renewAttempt = sessionSetup.createStateConfig({
  invoke: {
    src: 'renewSilently',
    onDone: [
      {
        guard: { type: 'hasUser', params: ({ event }) => ({ user: event.output }) },
        target: '#session.signedIn.verifying',
        actions: { type: 'storeTokens', params: ({ event }) => ({ user: event.output as SessionUser, source: 'renewed' as const }) },
      },
      {
        target: '#session.redirecting',
        actions: [
          'forgetRedirect',
          { type: 'storeMessage', params: { message: 'Silent renew returned no user' } },
          { type: 'logError', params: { message: 'Silent renew returned no user; signing in again' } },
        ],
      },
    ],
    onError: {
      target: '#session.redirecting',
      actions: [
        'forgetRedirect',
        { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
        { type: 'logError', params: ({ event }) => ({ message: 'Silent renew failed; signing in again', error: event.error }) },
      ],
    },
  },
});

export const sessionMachine = sessionSetup.createMachine({
  id: 'session',
  context: ({ input }) => ({
    location: input.location,
    redirect: input.redirect,
    ...forgetSession,
    error: null,
    source: null,
  }),
  initial: 'starting',
  states: {
    // Transient: the page the SPA was loaded on decides where the flow begins.
    starting: {
      always: [
        { guard: 'atSignInCallback', target: 'completingSignIn' },
        { guard: 'inSilentRenewFrame', target: 'inFrame' },
        { guard: 'afterSignOut', target: 'finishingSignOut' },
        { target: 'checking' },
      ],
    },

    checking: {
      tags: ['busy'],
      invoke: {
        src: 'loadUser',
        onDone: [
          {
            guard: { type: 'hasUnexpiredUser', params: ({ event }) => ({ user: event.output }) },
            target: 'verifying',
            actions: { type: 'storeTokens', params: ({ event }) => ({ user: event.output as SessionUser, source: 'stored' as const }) },
          },
          // No stored user, or an expired one: spec 4, "a user who is not signed in is sent to sign-in by redirect".
          { target: 'redirecting' },
        ],
        onError: {
          target: 'redirecting',
          actions: [
            { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            { type: 'logError', params: ({ event }) => ({ message: 'Could not read the stored user', error: event.error }) },
          ],
        },
      },
    },

    completingSignIn: {
      tags: ['busy'],
      invoke: {
        src: 'completeSignIn',
        onDone: {
          target: 'verifying',
          actions: [
            { type: 'storeTokens', params: ({ event }) => ({ user: event.output.user, source: 'signIn' as const }) },
            { type: 'storeRedirect', params: ({ event }) => ({ redirect: event.output.redirect }) },
          ],
        },
        // State mismatch, provider error, …: show it rather than loop through the provider again.
        onError: {
          target: 'failed',
          actions: [
            { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            { type: 'logError', params: ({ event }) => ({ message: 'Sign-in callback failed', error: event.error }) },
          ],
        },
      },
    },

    // Transient: checks on the token just obtained, before asking the API.
    verifying: {
      always: [
        {
          guard: and(['lacksApiScope', 'isFreshSignIn']),
          target: 'failed',
          actions: [
            { type: 'storeMessage', params: { message: SIGN_IN_NOT_ACCEPTED_MESSAGE } },
            { type: 'logError', params: { message: `A fresh sign-in returned an access token without the "${API_SCOPE}" scope` } },
          ],
        },
        // Spec 4: a missing scope in the access token sends the user to sign in.
        {
          guard: 'lacksApiScope',
          target: 'redirecting',
          actions: { type: 'logError', params: { message: `The access token lacks the "${API_SCOPE}" scope; signing in again` } },
        },
        { guard: 'claimsRejected', target: 'denied', actions: 'storeDenial' },
        { target: 'loadingPermissions', actions: 'storeUser' },
      ],
    },

    // Spec 4: after sign-in the user's permissions are re-read.
    loadingPermissions: {
      tags: ['busy'],
      invoke: {
        src: 'fetchMe',
        input: ({ context }) => ({ accessToken: context.accessToken ?? '' }),
        onDone: { target: 'signedIn', actions: { type: 'storeMe', params: ({ event }) => ({ me: event.output }) } },
        onError: [
          {
            guard: { type: 'isRefusedStoredToken', params: ({ event }) => ({ error: event.error }) },
            target: 'redirecting',
            actions: [
              { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
              { type: 'logError', params: ({ event }) => ({ message: 'The stored token was refused; signing in again', error: event.error }) },
            ],
          },
          {
            target: 'failed',
            actions: [
              { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
              { type: 'logError', params: ({ event }) => ({ message: 'Could not read permissions (GET /api/me)', error: event.error }) },
            ],
          },
        ],
      },
    },

    signedIn: {
      tags: ['authenticated'],
      invoke: {
        src: 'watchTokens',
        // A callback actor never finishes on its own, so there is no onDone.
        onError: {
          target: 'redirecting',
          actions: [
            'forgetRedirect',
            { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            { type: 'logError', params: ({ event }) => ({ message: 'Token event wiring failed', error: event.error }) },
          ],
        },
      },
      on: {
        'token.expiring': '.renewing',
        'token.expired': '.renewing',
        'token.renewFailed': {
          target: 'redirecting',
          actions: [
            'forgetRedirect',
            { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            { type: 'logError', params: ({ event }) => ({ message: 'Silent renew failed', error: event.error }) },
          ],
        },
        // Spec 8.1: a 401 sends the user to sign in again.
        'api.unauthorized': {
          target: 'redirecting',
          actions: ['forgetRedirect', { type: 'logError', params: { message: 'The API answered 401; signing in again' } }],
        },
        'session.ended': {
          target: 'redirecting',
          actions: ['forgetRedirect', { type: 'logError', params: { message: 'The identity provider ended the session; signing in again' } }],
        },
        'session.signOut': 'signingOut',
      },
      initial: 'idle',
      states: {
        idle: {
          on: { 'licenses.accepted': 'refreshing' },
        },
        renewing: {
          tags: ['busy'],
          // The renewal under way reports its own outcome.
          on: { 'token.expiring': {}, 'token.expired': {}, 'token.renewFailed': {} },
          initial: 'attempt',
          states: {
            attempt: {
              ...renewAttempt,
              after: { renewTimeout: 'retryWait' },
            },
            retryWait: {
              after: { renewRetryDelay: 'retry' },
            },
            // The one retry: same outcomes as the first attempt, but a second timeout gives up.
            retry: {
              ...renewAttempt,
              after: {
                renewTimeout: {
                  target: '#session.redirecting',
                  actions: [
                    'forgetRedirect',
                    { type: 'storeMessage', params: { message: 'Silent renew timed out twice' } },
                    { type: 'logError', params: { message: 'Silent renew timed out twice; signing in again' } },
                  ],
                },
              },
            },
          },
        },
        // Transient: the renewed token gets the same checks as a new one.
        verifying: {
          always: [
            {
              guard: 'lacksApiScope',
              target: '#session.redirecting',
              actions: ['forgetRedirect', { type: 'logError', params: { message: `The renewed access token lacks the "${API_SCOPE}" scope; signing in again` } }],
            },
            { guard: 'claimsRejected', target: '#session.denied', actions: 'storeDenial' },
            { target: 'refreshing', actions: 'storeUser' },
          ],
        },
        // Re-reads GET /api/me while the app stays on screen (after renewal, after licenses are accepted).
        refreshing: {
          tags: ['busy'],
          on: {
            // A read already under way may predate the acceptance; read again.
            'licenses.accepted': { target: 'refreshing', reenter: true },
          },
          invoke: {
            src: 'fetchMe',
            input: ({ context }) => ({ accessToken: context.accessToken ?? '' }),
            onDone: { target: 'idle', actions: { type: 'storeMe', params: ({ event }) => ({ me: event.output }) } },
            onError: [
              {
                guard: { type: 'isUnauthorized', params: ({ event }) => ({ error: event.error }) },
                target: '#session.redirecting',
                actions: [
                  'forgetRedirect',
                  { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
                  { type: 'logError', params: ({ event }) => ({ message: 'The API refused the renewed token; signing in again', error: event.error }) },
                ],
              },
              // Keep the permissions already read; the app stays usable and the next read may succeed.
              {
                target: 'idle',
                actions: [
                  { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
                  { type: 'logError', params: ({ event }) => ({ message: 'Could not re-read permissions (GET /api/me)', error: event.error }) },
                ],
              },
            ],
          },
        },
      },
    },

    redirecting: {
      tags: ['busy', 'signingIn'],
      entry: 'forgetSession',
      invoke: {
        src: 'startSignIn',
        input: ({ context }) => ({ redirect: context.redirect }),
        // The browser is on its way to the identity provider; nothing more to do here.
        onDone: {},
        onError: {
          target: 'failed',
          actions: [
            { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            { type: 'logError', params: ({ event }) => ({ message: 'Could not start sign-in', error: event.error }) },
          ],
        },
      },
    },

    // Spec 5: the sign-in checks failed; `error` holds the verbatim message.
    denied: {
      tags: ['refused'],
      on: {
        // A fresh sign-in brings a new token, with whatever the administrator has assigned since.
        'session.retry': 'redirecting',
        'session.signOut': 'signingOut',
      },
    },

    // Sign-in could not complete (provider error, network, server); `error` says why.
    failed: {
      tags: ['refused'],
      on: {
        'session.retry': 'redirecting',
        'session.signOut': 'signingOut',
      },
    },

    signingOut: {
      tags: ['busy', 'signingOut'],
      entry: 'forgetSession',
      invoke: {
        src: 'signOut',
        // The browser is on its way to the end-session endpoint.
        onDone: {},
        onError: {
          target: 'signedOut',
          actions: [
            { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            { type: 'logError', params: ({ event }) => ({ message: 'Sign-out failed', error: event.error }) },
          ],
        },
      },
    },

    // The logged-out page: the provider sent the browser back after ending the session.
    finishingSignOut: {
      tags: ['busy', 'signingOut'],
      invoke: {
        src: 'completeSignOut',
        onDone: 'signedOut',
        onError: {
          target: 'signedOut',
          actions: [
            { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            { type: 'logError', params: ({ event }) => ({ message: 'Sign-out callback failed', error: event.error }) },
          ],
        },
      },
    },

    // Nothing starts by itself after sign-out; the Authentication page asks for a new sign-in.
    signedOut: {
      tags: ['signingIn'],
      on: {
        'session.signIn': {
          target: 'redirecting',
          actions: { type: 'storeRedirect', params: ({ event }) => ({ redirect: event.redirect }) },
        },
      },
    },

    // Inside the silent-renew iframe the page itself hands the response to the parent window.
    inFrame: {
      tags: ['busy'],
    },
  },
});

export type SessionMachine = typeof sessionMachine;
export type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;
export type SessionActorRef = ActorRefFrom<typeof sessionMachine>;
