/**
 * The sign-in session (product-spec 4 "Session", 5, 8.2, 9): load or complete sign-in, check the token,
 * read permissions, renew silently before expiry, restart sign-in when anything about the token fails.
 * Pure: every effect (oidc-client-ts, fetch, navigation, logging) is an injected actor or action,
 * provided by src/auth/session-actors.ts in the app and by fakes in tests.
 */
import { and, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { API_SCOPE } from '../core/claims';
import { signedIn } from './session.renewal';
import { forgetSession, sessionSetup } from './session.setup';
import { SIGN_IN_NOT_ACCEPTED_MESSAGE, type SessionUser } from './session.types';

// The machine's words live in session.types.ts; the app and tests take them from here with the machine.
export * from './session.types';

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

    signedIn,

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
