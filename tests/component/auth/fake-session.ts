/** A session machine with fake effects for the auth component tests; no oidc-client-ts, no network. */
import { fromCallback, fromPromise } from 'xstate';
import type { Me } from '../../../core/schemas/me';
import { sessionMachine, type CompletedSignIn, type SessionUser } from '../../../machines/session.machine';

export { analystClaims, ORG } from '../../helpers/session-fixtures';
import { analystClaims, analystMe } from '../../helpers/session-fixtures';

export function sessionUser(overrides: Partial<SessionUser> = {}): SessionUser {
  return { accessToken: 'token-1', expiresAt: 2_000_000_000, expired: false, scopes: ['openid', 'access'], claims: analystClaims, ...overrides };
}

export const me: Me = analystMe;

const never = <T>() => new Promise<T>(() => {});

export interface FakeSession {
  loadUser?: () => Promise<SessionUser | null>;
  completeSignIn?: () => Promise<CompletedSignIn>;
  startSignIn?: (input: { redirect: string | undefined }) => Promise<void>;
  fetchMe?: () => Promise<Me>;
  signOut?: () => Promise<void>;
}

export function fakeSession(fakes: FakeSession = {}): typeof sessionMachine {
  return sessionMachine.provide({
    actors: {
      loadUser: fromPromise(() => (fakes.loadUser ?? (async () => sessionUser()))()),
      completeSignIn: fromPromise(() => (fakes.completeSignIn ?? (async () => ({ user: sessionUser(), redirect: undefined })))()),
      // The real one leaves the page.
      startSignIn: fromPromise(({ input }) => (fakes.startSignIn ?? (() => never<void>()))(input)),
      fetchMe: fromPromise(() => (fakes.fetchMe ?? (async () => me))()),
      renewSilently: fromPromise(() => never<SessionUser | null>()),
      signOut: fromPromise(() => (fakes.signOut ?? (() => never<void>()))()),
      completeSignOut: fromPromise<void>(async () => {}),
      watchTokens: fromCallback(() => undefined),
    },
    actions: { logError: () => undefined },
  });
}
