/**
 * The signed-in session (session.machine.ts): token events watched, a silent renew before expiry with one
 * retry (spec 8.2, 9), the renewed token checked again and the permissions re-read while the app stays on screen.
 */
import { API_SCOPE } from '../core/claims';
import { sessionSetup } from './session.setup';
import type { SessionUser } from './session.types';

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

/** Signed in: where every token event and 401 leads, and the renewal under way. */
export const signedIn = sessionSetup.createStateConfig({
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
});
