/** A session machine with fake effects for the auth component tests; no oidc-client-ts, no network. */
import { fromCallback, fromPromise } from 'xstate';
import { encodePermissionsClaim, type LocusClaims } from '../../../core/claims';
import type { Me } from '../../../core/schemas/me';
import { sessionMachine, type CompletedSignIn, type SessionUser } from '../../../machines/session.machine';

export const ORG = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';

export const analystClaims: LocusClaims = {
  sub: 'user-1',
  permissions: encodePermissionsClaim('Analyst', false, { Cases: ['Read'] }),
  ScopeLevel: 'Organization',
  organization: [ORG],
};

export function sessionUser(overrides: Partial<SessionUser> = {}): SessionUser {
  return { accessToken: 'token-1', expiresAt: 2_000_000_000, expired: false, scopes: ['openid', 'access'], claims: analystClaims, ...overrides };
}

export const me: Me = {
  id: '9b2f1c1e-8a43-4a59-9a49-6f3c1f0f5d11',
  email: 'ana@lab.example',
  firstName: 'Ana',
  lastName: 'Lyst',
  roleName: 'Analyst',
  isAdmin: false,
  scope: 'Organization',
  organizations: [{ id: ORG, name: 'North Lab' }],
  permissions: { Cases: ['Read'] },
  licensesAccepted: true,
};

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
