import { describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor, fromCallback, fromPromise, waitFor, type EventObject } from 'xstate';
import { encodePermissionsClaim, NO_PERMISSIONS_MESSAGE, NO_SCOPE_MESSAGE } from '../../../core/claims';
import type { Me } from '../../../core/schemas/me';
import {
  SIGN_IN_NOT_ACCEPTED_MESSAGE,
  SessionUnauthorizedError,
  sessionMachine,
  type CompletedSignIn,
  type SessionInput,
  type SessionSnapshot,
  type SessionUser,
} from '../../../machines/session.machine';
import { sessionStatus } from '../../../machines/session.status';

import { analystClaims, analystMe, ORG } from '../../helpers/session-fixtures';

function sessionUser(overrides: Partial<SessionUser> = {}): SessionUser {
  return {
    accessToken: 'token-1',
    expiresAt: 2_000_000_000,
    expired: false,
    scopes: ['openid', 'email', 'profile', 'offline_access', 'access'],
    claims: analystClaims,
    ...overrides,
  };
}

function me(overrides: Partial<Me> = {}): Me {
  return { ...analystMe, licensesAccepted: false, ...overrides };
}

/** A promise the test settles by hand. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const never = <T>() => new Promise<T>(() => {});

interface Fakes {
  loadUser: () => Promise<SessionUser | null>;
  completeSignIn: () => Promise<CompletedSignIn>;
  startSignIn: (input: { redirect: string | undefined }) => Promise<void>;
  fetchMe: (input: { accessToken: string }) => Promise<Me>;
  renewSilently: () => Promise<SessionUser | null>;
  signOut: () => Promise<void>;
  completeSignOut: () => Promise<void>;
  watchTokens: (sendBack: (event: EventObject) => void) => void | (() => void);
}

/** Starts the session machine with fake effects; every fake is a spy the test can inspect. */
function startSession(input: SessionInput, overrides: Partial<Fakes> = {}, clock?: SimulatedClock) {
  const fakes = {
    loadUser: vi.fn<Fakes['loadUser']>(async () => sessionUser()),
    completeSignIn: vi.fn<Fakes['completeSignIn']>(async () => ({ user: sessionUser(), redirect: '/somewhere' })),
    // The real one leaves the page, so it never settles.
    startSignIn: vi.fn<Fakes['startSignIn']>(() => never()),
    fetchMe: vi.fn<Fakes['fetchMe']>(async () => me()),
    renewSilently: vi.fn<Fakes['renewSilently']>(async () => sessionUser({ accessToken: 'token-2' })),
    signOut: vi.fn<Fakes['signOut']>(() => never()),
    completeSignOut: vi.fn<Fakes['completeSignOut']>(async () => undefined),
    watchTokens: vi.fn<Fakes['watchTokens']>(() => undefined),
  };
  // Overrides become spies too, so tests can count calls whichever fake they use.
  for (const [name, fake] of Object.entries(overrides)) {
    (fakes as Record<string, unknown>)[name] = vi.isMockFunction(fake) ? fake : vi.fn(fake);
  }
  const logError = vi.fn<(params: { message: string; error?: unknown }) => void>();
  const machine = sessionMachine.provide({
    actors: {
      loadUser: fromPromise(() => fakes.loadUser()),
      completeSignIn: fromPromise(() => fakes.completeSignIn()),
      startSignIn: fromPromise(({ input }) => fakes.startSignIn(input)),
      fetchMe: fromPromise(({ input }) => fakes.fetchMe(input)),
      renewSilently: fromPromise(() => fakes.renewSilently()),
      signOut: fromPromise(() => fakes.signOut()),
      completeSignOut: fromPromise(() => fakes.completeSignOut()),
      watchTokens: fromCallback(({ sendBack }) => fakes.watchTokens(sendBack)),
    },
    actions: { logError: (_, params) => logError(params) },
  });
  const actor = createActor(machine, clock ? { input, clock } : { input });
  actor.start();
  return { actor, fakes, logError };
}

const inApp: SessionInput = { location: 'app', redirect: '/3f2504e0/cases?tab=open' };
const isSignedInIdle = (s: SessionSnapshot) => s.matches({ signedIn: 'idle' });

async function signedInSession(overrides: Partial<Fakes> = {}, clock?: SimulatedClock) {
  const session = startSession(inApp, overrides, clock);
  await waitFor(session.actor, isSignedInIdle);
  return session;
}

/** Lets settled fakes deliver their results. */
const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('session: starting the app', () => {
  it('signs a returning user in with their stored token and the permissions the server reads for them', async () => {
    const { actor, fakes } = startSession(inApp);
    const snapshot = await waitFor(actor, isSignedInIdle);

    expect(sessionStatus(snapshot)).toBe('signedIn');
    expect(fakes.fetchMe).toHaveBeenCalledWith({ accessToken: 'token-1' });
    expect(snapshot.context).toMatchObject({
      accessToken: 'token-1',
      expiresAt: 2_000_000_000,
      me: me(),
      user: { id: 'user-1', roleName: 'Analyst', isAdmin: false, scope: 'Organization', organizationIds: [ORG] },
      error: null,
    });
    expect(fakes.startSignIn).not.toHaveBeenCalled();
  });

  it('shows "loading" while the stored user and the permissions are read', async () => {
    const user = deferred<SessionUser | null>();
    const permissions = deferred<Me>();
    const { actor } = startSession(inApp, { loadUser: () => user.promise, fetchMe: () => permissions.promise });

    expect(actor.getSnapshot().value).toBe('checking');
    expect(sessionStatus(actor.getSnapshot())).toBe('loading');
    user.resolve(sessionUser());
    await waitFor(actor, (s) => s.matches('loadingPermissions'));
    expect(sessionStatus(actor.getSnapshot())).toBe('loading');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    permissions.resolve(me());
    await waitFor(actor, isSignedInIdle);
  });

  it('sends a visitor who is not signed in to the identity provider, to come back to the full path they asked for', async () => {
    const { actor, fakes } = startSession(inApp, { loadUser: async () => null });
    const snapshot = await waitFor(actor, (s) => s.matches('redirecting'));

    expect(sessionStatus(snapshot)).toBe('signingIn');
    expect(fakes.startSignIn).toHaveBeenCalledWith({ redirect: '/3f2504e0/cases?tab=open' });
    expect(fakes.fetchMe).not.toHaveBeenCalled();
  });

  it('sends a user whose stored token has expired to sign in again', async () => {
    const { actor, fakes } = startSession(inApp, { loadUser: async () => sessionUser({ expired: true }) });
    await waitFor(actor, (s) => s.matches('redirecting'));

    expect(fakes.startSignIn).toHaveBeenCalledWith({ redirect: '/3f2504e0/cases?tab=open' });
    expect(fakes.fetchMe).not.toHaveBeenCalled();
  });

  it('logs an unreadable user store and sends the user to sign in', async () => {
    const broken = new Error('storage is corrupt');
    const { actor, fakes, logError } = startSession(inApp, { loadUser: async () => Promise.reject(broken) });
    const snapshot = await waitFor(actor, (s) => s.matches('redirecting'));

    expect(logError).toHaveBeenCalledWith(expect.objectContaining({ error: broken }));
    expect(snapshot.context.error).toBe('storage is corrupt');
    expect(fakes.startSignIn).toHaveBeenCalledTimes(1);
  });

  it('shows why sign-in could not start when the identity provider cannot be reached', async () => {
    const { actor, logError } = startSession(inApp, {
      loadUser: async () => null,
      startSignIn: async () => Promise.reject(new Error('Network Error')),
    });
    const snapshot = await waitFor(actor, (s) => s.matches('failed'));

    expect(sessionStatus(snapshot)).toBe('denied');
    expect(snapshot.context.error).toBe('Network Error');
    expect(logError).toHaveBeenCalled();
  });
});

describe('session: returning from the identity provider', () => {
  const atCallback: SessionInput = { location: 'callback' };

  it('completes sign-in on the callback page and keeps the stored path to return to', async () => {
    const { actor, fakes } = startSession(atCallback, {
      completeSignIn: async () => ({ user: sessionUser({ accessToken: 'fresh' }), redirect: '/all/hits?state=pending' }),
    });
    const snapshot = await waitFor(actor, isSignedInIdle);

    expect(fakes.loadUser).not.toHaveBeenCalled();
    expect(fakes.fetchMe).toHaveBeenCalledWith({ accessToken: 'fresh' });
    expect(snapshot.context.redirect).toBe('/all/hits?state=pending');
    expect(snapshot.context.source).toBe('signIn');
  });

  it('shows the sign-in error (e.g. "State does not match") instead of looping through the provider', async () => {
    const { actor, fakes, logError } = startSession(atCallback, {
      completeSignIn: async () => Promise.reject(new Error('State does not match')),
    });
    const snapshot = await waitFor(actor, (s) => s.matches('failed'));

    expect(sessionStatus(snapshot)).toBe('denied');
    expect(snapshot.context.error).toBe('State does not match');
    expect(logError).toHaveBeenCalledWith(expect.objectContaining({ message: 'Sign-in callback failed' }));
    expect(fakes.startSignIn).not.toHaveBeenCalled();
  });

  it('lets the user try signing in again after a failed callback', async () => {
    const { actor, fakes } = startSession(atCallback, {
      completeSignIn: async () => Promise.reject(new Error('No matching state found in storage')),
    });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().can({ type: 'session.retry' })).toBe(true);

    actor.send({ type: 'session.retry' });
    expect(actor.getSnapshot().value).toBe('redirecting');
    expect(fakes.startSignIn).toHaveBeenCalledTimes(1);
  });

  it('starts nothing inside the silent-renew frame', async () => {
    const { actor, fakes } = startSession({ location: 'silentRenew' });
    await flush();

    expect(actor.getSnapshot().value).toBe('inFrame');
    expect(sessionStatus(actor.getSnapshot())).toBe('loading');
    for (const fake of Object.values(fakes)) expect(fake).not.toHaveBeenCalled();
  });
});

describe('session: after sign-out', () => {
  const loggedOut: SessionInput = { location: 'loggedOut' };

  it('finishes the sign-out callback and waits without signing in again by itself', async () => {
    const { actor, fakes } = startSession(loggedOut);
    const snapshot = await waitFor(actor, (s) => s.matches('signedOut'));

    expect(fakes.completeSignOut).toHaveBeenCalledTimes(1);
    expect(fakes.loadUser).not.toHaveBeenCalled();
    expect(fakes.startSignIn).not.toHaveBeenCalled();
    expect(sessionStatus(snapshot)).toBe('signingIn');
  });

  it('still reaches the signed-out page when the sign-out callback fails, and logs it', async () => {
    const { actor, logError } = startSession(loggedOut, { completeSignOut: async () => Promise.reject(new Error('No state in response')) });
    const snapshot = await waitFor(actor, (s) => s.matches('signedOut'));

    expect(snapshot.context.error).toBe('No state in response');
    expect(logError).toHaveBeenCalled();
  });

  it('"Sign in again" sends the user to the identity provider with the path they asked for', async () => {
    const { actor, fakes } = startSession(loggedOut);
    await waitFor(actor, (s) => s.matches('signedOut'));

    actor.send({ type: 'session.signIn', redirect: '/all' });
    expect(actor.getSnapshot().value).toBe('redirecting');
    expect(fakes.startSignIn).toHaveBeenCalledWith({ redirect: '/all' });
  });
});

describe('session: checks on the token (spec 4, 5)', () => {
  it('sends a user whose stored token lacks the "access" scope to sign in, without calling the API', async () => {
    const { actor, fakes, logError } = startSession(inApp, { loadUser: async () => sessionUser({ scopes: ['openid', 'profile'] }) });
    await waitFor(actor, (s) => s.matches('redirecting'));

    expect(fakes.fetchMe).not.toHaveBeenCalled();
    expect(fakes.startSignIn).toHaveBeenCalledWith({ redirect: '/3f2504e0/cases?tab=open' });
    expect(logError).toHaveBeenCalledWith(expect.objectContaining({ message: expect.stringContaining('"access"') }));
  });

  it('shows a message, instead of redirecting for ever, when a fresh sign-in still lacks the "access" scope', async () => {
    const { actor, fakes } = startSession(
      { location: 'callback' },
      { completeSignIn: async () => ({ user: sessionUser({ scopes: ['openid'] }), redirect: '/all' }) },
    );
    const snapshot = await waitFor(actor, (s) => s.matches('failed'));

    expect(snapshot.context.error).toBe(SIGN_IN_NOT_ACCEPTED_MESSAGE);
    expect(fakes.startSignIn).not.toHaveBeenCalled();
  });

  it('refuses a user without permissions with the verbatim "No permissions found" message', async () => {
    const noPermissions = { ...analystClaims, permissions: encodePermissionsClaim('Nobody', false, {}) };
    const { actor, fakes } = startSession(inApp, { loadUser: async () => sessionUser({ claims: noPermissions }) });
    const snapshot = await waitFor(actor, (s) => s.matches('denied'));

    expect(sessionStatus(snapshot)).toBe('denied');
    expect(snapshot.context.error).toBe(NO_PERMISSIONS_MESSAGE);
    expect(snapshot.context.user).toBeNull();
    expect(fakes.fetchMe).not.toHaveBeenCalled();
  });

  it('refuses a user with no permissions claim at all', async () => {
    const { actor } = startSession(inApp, { loadUser: async () => sessionUser({ claims: { sub: 'user-1', ScopeLevel: 'All' } }) });
    const snapshot = await waitFor(actor, (s) => s.matches('denied'));
    expect(snapshot.context.error).toBe(NO_PERMISSIONS_MESSAGE);
  });

  it('lets an administrator in even without listed permissions', async () => {
    const admin = { sub: 'admin-1', permissions: encodePermissionsClaim('Administrator', true, {}), ScopeLevel: 'All' };
    const { actor } = startSession(inApp, { loadUser: async () => sessionUser({ claims: admin }) });
    const snapshot = await waitFor(actor, isSignedInIdle);
    expect(snapshot.context.user).toMatchObject({ isAdmin: true, scope: 'All' });
  });

  it('refuses a user without a scope level with the verbatim "No scope is set" message', async () => {
    const noScope = { ...analystClaims, ScopeLevel: undefined };
    const { actor } = startSession(inApp, { loadUser: async () => sessionUser({ claims: noScope }) });
    const snapshot = await waitFor(actor, (s) => s.matches('denied'));
    expect(snapshot.context.error).toBe(NO_SCOPE_MESSAGE);
  });

  it('lets a refused user sign in again (to pick up new permissions) or sign out', async () => {
    const noScope = { ...analystClaims, ScopeLevel: 'Nowhere' };
    const { actor, fakes } = startSession(inApp, { loadUser: async () => sessionUser({ claims: noScope }) });
    const snapshot = await waitFor(actor, (s) => s.matches('denied'));

    expect(snapshot.can({ type: 'session.signOut' })).toBe(true);
    expect(snapshot.can({ type: 'licenses.accepted' })).toBe(false);
    actor.send({ type: 'session.retry' });
    expect(actor.getSnapshot().value).toBe('redirecting');
    expect(fakes.startSignIn).toHaveBeenCalledTimes(1);
  });
});

describe('session: reading permissions (GET /api/me)', () => {
  it('sends the user to sign in again when the API refuses a stored token (401)', async () => {
    const { actor, fakes, logError } = startSession(inApp, { fetchMe: async () => Promise.reject(new SessionUnauthorizedError()) });
    await waitFor(actor, (s) => s.matches('redirecting'));

    expect(fakes.startSignIn).toHaveBeenCalledWith({ redirect: '/3f2504e0/cases?tab=open' });
    expect(logError).toHaveBeenCalled();
  });

  it('shows a failure instead of looping when the API refuses a token just issued by the provider', async () => {
    const { actor, fakes } = startSession({ location: 'callback' }, { fetchMe: async () => Promise.reject(new SessionUnauthorizedError()) });
    const snapshot = await waitFor(actor, (s) => s.matches('failed'));

    expect(snapshot.context.error).toMatch(/401/);
    expect(fakes.startSignIn).not.toHaveBeenCalled();
  });

  it('shows the failure when permissions cannot be read, and "try again" signs in again', async () => {
    const { actor, fakes, logError } = startSession(inApp, { fetchMe: async () => Promise.reject(new Error('Your request failed.')) });
    const snapshot = await waitFor(actor, (s) => s.matches('failed'));

    expect(sessionStatus(snapshot)).toBe('denied');
    expect(snapshot.context.error).toBe('Your request failed.');
    expect(logError).toHaveBeenCalledWith(expect.objectContaining({ message: expect.stringContaining('/api/me') }));
    actor.send({ type: 'session.retry' });
    expect(fakes.startSignIn).toHaveBeenCalledTimes(1);
  });
});

describe('session: silent renewal before the token expires (spec 4, 9)', () => {
  it('renews the token shortly before it expires and re-reads permissions, while the app stays on screen', async () => {
    const renewed = deferred<SessionUser | null>();
    const { actor, fakes } = await signedInSession({ renewSilently: () => renewed.promise });

    actor.send({ type: 'token.expiring' });
    expect(actor.getSnapshot().matches({ signedIn: { renewing: 'attempt' } })).toBe(true);
    expect(sessionStatus(actor.getSnapshot())).toBe('signedIn');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);

    fakes.fetchMe.mockResolvedValueOnce(me({ roleName: 'Reviewer' }));
    renewed.resolve(sessionUser({ accessToken: 'token-2', expiresAt: 2_000_003_600 }));
    const snapshot = await waitFor(actor, isSignedInIdle);

    expect(fakes.fetchMe).toHaveBeenLastCalledWith({ accessToken: 'token-2' });
    expect(snapshot.context).toMatchObject({ accessToken: 'token-2', expiresAt: 2_000_003_600, source: 'renewed' });
    expect(snapshot.context.me?.roleName).toBe('Reviewer');
  });

  it('renews when the provider library reports the token expiring (event wired through watchTokens)', async () => {
    let report: ((event: EventObject) => void) | undefined;
    const { actor, fakes } = await signedInSession({ watchTokens: (sendBack) => void (report = sendBack) });

    report?.({ type: 'token.expiring' });
    await waitFor(actor, (s) => s.matches({ signedIn: 'refreshing' }) || fakes.renewSilently.mock.calls.length > 0);
    expect(fakes.renewSilently).toHaveBeenCalledTimes(1);
    await waitFor(actor, isSignedInIdle);
  });

  it('renews an already-expired token too (e.g. after the computer slept)', async () => {
    const { actor, fakes } = await signedInSession();
    actor.send({ type: 'token.expired' });
    await waitFor(actor, (s) => s.context.accessToken === 'token-2' && isSignedInIdle(s));
    expect(fakes.renewSilently).toHaveBeenCalledTimes(1);
  });

  it('does not start a second renewal while one is under way', async () => {
    const { actor, fakes } = await signedInSession({ renewSilently: () => never() });
    actor.send({ type: 'token.expiring' });
    actor.send({ type: 'token.expiring' });
    actor.send({ type: 'token.expired' });
    actor.send({ type: 'token.renewFailed', error: new Error('automatic renew') });

    expect(actor.getSnapshot().matches({ signedIn: { renewing: 'attempt' } })).toBe(true);
    expect(fakes.renewSilently).toHaveBeenCalledTimes(1);
  });

  it('waits 10 s for a renewal, then retries once after 5 s; the retry can still succeed', async () => {
    const clock = new SimulatedClock();
    const second = deferred<SessionUser | null>();
    const renewSilently = vi.fn<Fakes['renewSilently']>().mockImplementationOnce(() => never()).mockImplementationOnce(() => second.promise);
    const { actor, logError } = await signedInSession({ renewSilently }, clock);

    actor.send({ type: 'token.expiring' });
    clock.increment(9_999);
    expect(actor.getSnapshot().matches({ signedIn: { renewing: 'attempt' } })).toBe(true);
    clock.increment(1);
    expect(actor.getSnapshot().matches({ signedIn: { renewing: 'retryWait' } })).toBe(true);
    expect(sessionStatus(actor.getSnapshot())).toBe('signedIn');
    clock.increment(4_999);
    expect(renewSilently).toHaveBeenCalledTimes(1);
    clock.increment(1);
    expect(actor.getSnapshot().matches({ signedIn: { renewing: 'retry' } })).toBe(true);
    expect(renewSilently).toHaveBeenCalledTimes(2);

    second.resolve(sessionUser({ accessToken: 'token-3' }));
    const snapshot = await waitFor(actor, isSignedInIdle);
    expect(snapshot.context.accessToken).toBe('token-3');
    expect(logError).not.toHaveBeenCalled();
  });

  it('gives up after a second 10 s timeout: logs it and restarts sign-in by redirect at the current page', async () => {
    const clock = new SimulatedClock();
    const { actor, fakes, logError } = await signedInSession({ renewSilently: () => never() }, clock);

    actor.send({ type: 'token.expiring' });
    clock.increment(10_000);
    clock.increment(5_000);
    clock.increment(9_999);
    expect(actor.getSnapshot().matches({ signedIn: { renewing: 'retry' } })).toBe(true);
    clock.increment(1);

    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toBe('redirecting');
    expect(fakes.renewSilently).toHaveBeenCalledTimes(2);
    expect(logError).toHaveBeenCalledWith(expect.objectContaining({ message: expect.stringContaining('timed out twice') }));
    // No stale path: the edge returns the user to wherever they are now.
    expect(fakes.startSignIn).toHaveBeenCalledWith({ redirect: undefined });
    expect(snapshot.context.accessToken).toBeNull();
  });

  it('logs a failed renewal and restarts sign-in by redirect, without retrying', async () => {
    const failure = new Error('invalid_grant');
    const { actor, fakes, logError } = await signedInSession({ renewSilently: async () => Promise.reject(failure) });

    actor.send({ type: 'token.expiring' });
    const snapshot = await waitFor(actor, (s) => s.matches('redirecting'));

    expect(fakes.renewSilently).toHaveBeenCalledTimes(1);
    expect(logError).toHaveBeenCalledWith(expect.objectContaining({ error: failure }));
    expect(snapshot.context.error).toBe('invalid_grant');
    expect(fakes.startSignIn).toHaveBeenCalledWith({ redirect: undefined });
  });

  it('logs a failed retry and restarts sign-in by redirect', async () => {
    const clock = new SimulatedClock();
    const renewSilently = vi
      .fn<Fakes['renewSilently']>()
      .mockImplementationOnce(() => never())
      .mockImplementationOnce(async () => Promise.reject(new Error('IFrame timed out without a response')));
    const { actor, logError } = await signedInSession({ renewSilently }, clock);

    actor.send({ type: 'token.expiring' });
    clock.increment(10_000);
    clock.increment(5_000);
    const snapshot = await waitFor(actor, (s) => s.matches('redirecting'));
    expect(snapshot.context.error).toBe('IFrame timed out without a response');
    expect(logError).toHaveBeenCalled();
  });

  it('logs a renewal that returns no user and restarts sign-in by redirect', async () => {
    const { actor, fakes, logError } = await signedInSession({ renewSilently: async () => null });

    actor.send({ type: 'token.expiring' });
    await waitFor(actor, (s) => s.matches('redirecting'));
    expect(logError).toHaveBeenCalledWith(expect.objectContaining({ message: expect.stringContaining('no user') }));
    expect(fakes.startSignIn).toHaveBeenCalledTimes(1);
  });

  it('logs a retry that returns no user and restarts sign-in by redirect', async () => {
    const clock = new SimulatedClock();
    const renewSilently = vi.fn<Fakes['renewSilently']>().mockImplementationOnce(() => never()).mockImplementationOnce(async () => null);
    const { actor, logError } = await signedInSession({ renewSilently }, clock);

    actor.send({ type: 'token.expiring' });
    clock.increment(10_000);
    clock.increment(5_000);
    await waitFor(actor, (s) => s.matches('redirecting'));
    expect(logError).toHaveBeenCalledWith(expect.objectContaining({ message: expect.stringContaining('no user') }));
  });

  it('sends the user to sign in when the renewed token lacks the "access" scope', async () => {
    const { actor, fakes } = await signedInSession({ renewSilently: async () => sessionUser({ accessToken: 'token-2', scopes: ['openid'] }) });
    actor.send({ type: 'token.expiring' });
    await waitFor(actor, (s) => s.matches('redirecting'));
    expect(fakes.fetchMe).toHaveBeenCalledTimes(1);
  });

  it('refuses the user with the verbatim message when the renewed token no longer carries permissions', async () => {
    const withoutPermissions = { ...analystClaims, permissions: undefined };
    const { actor } = await signedInSession({ renewSilently: async () => sessionUser({ claims: withoutPermissions }) });
    actor.send({ type: 'token.expiring' });
    const snapshot = await waitFor(actor, (s) => s.matches('denied'));
    expect(snapshot.context.error).toBe(NO_PERMISSIONS_MESSAGE);
  });

  it('keeps the user signed in with the permissions already read when re-reading them fails', async () => {
    const { actor, fakes, logError } = await signedInSession();
    fakes.fetchMe.mockRejectedValueOnce(new Error('Your request failed.'));

    actor.send({ type: 'token.expiring' });
    await waitFor(actor, (s) => s.context.error !== null);
    const snapshot = actor.getSnapshot();
    expect(isSignedInIdle(snapshot)).toBe(true);
    expect(snapshot.context.me).toEqual(me());
    expect(snapshot.context.accessToken).toBe('token-2');
    expect(logError).toHaveBeenCalled();
  });

  it('restarts sign-in when the API refuses the renewed token (401)', async () => {
    const { actor, fakes } = await signedInSession();
    fakes.fetchMe.mockRejectedValueOnce(new SessionUnauthorizedError());
    actor.send({ type: 'token.expiring' });
    await waitFor(actor, (s) => s.matches('redirecting'));
    expect(fakes.startSignIn).toHaveBeenCalledWith({ redirect: undefined });
  });
});

describe('session: while signed in', () => {
  it('restarts sign-in at the current page when the API answers 401, and logs it', async () => {
    const { actor, fakes, logError } = await signedInSession();
    actor.send({ type: 'api.unauthorized' });

    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toBe('redirecting');
    expect(snapshot.context).toMatchObject({ accessToken: null, me: null, user: null });
    expect(fakes.startSignIn).toHaveBeenCalledWith({ redirect: undefined });
    expect(logError).toHaveBeenCalledWith(expect.objectContaining({ message: expect.stringContaining('401') }));
  });

  it('restarts sign-in when the identity provider reports the session ended', async () => {
    let report: ((event: EventObject) => void) | undefined;
    const { actor, fakes } = await signedInSession({ watchTokens: (sendBack) => void (report = sendBack) });
    report?.({ type: 'session.ended' });
    await waitFor(actor, (s) => s.matches('redirecting'));
    expect(fakes.startSignIn).toHaveBeenCalledTimes(1);
  });

  it("restarts sign-in when the provider library's own renewal fails", async () => {
    const { actor, logError } = await signedInSession();
    actor.send({ type: 'token.renewFailed', error: new Error('login_required') });
    expect(actor.getSnapshot().value).toBe('redirecting');
    expect(actor.getSnapshot().context.error).toBe('login_required');
    expect(logError).toHaveBeenCalled();
  });

  it('restarts sign-in when token events cannot be watched', async () => {
    const { actor, logError } = startSession(inApp, {
      watchTokens: () => {
        throw new Error('events unavailable');
      },
    });
    await waitFor(actor, (s) => s.matches('redirecting'));
    expect(logError).toHaveBeenCalledWith(expect.objectContaining({ message: 'Token event wiring failed' }));
  });

  it('stops watching token events once the user leaves the signed-in state', async () => {
    const stop = vi.fn();
    const { actor } = await signedInSession({ watchTokens: () => stop });
    actor.send({ type: 'session.signOut' });
    expect(stop).toHaveBeenCalledTimes(1);
  });

  it('re-reads permissions after licenses are accepted', async () => {
    const { actor, fakes } = await signedInSession();
    fakes.fetchMe.mockResolvedValueOnce(me({ licensesAccepted: true }));

    actor.send({ type: 'licenses.accepted' });
    expect(actor.getSnapshot().matches({ signedIn: 'refreshing' })).toBe(true);
    expect(sessionStatus(actor.getSnapshot())).toBe('signedIn');
    const snapshot = await waitFor(actor, (s) => isSignedInIdle(s) && s.context.me?.licensesAccepted === true);
    expect(fakes.fetchMe).toHaveBeenCalledTimes(2);
    expect(snapshot.context.me?.licensesAccepted).toBe(true);
  });

  it('reads again when licenses are accepted while an earlier read is still under way', async () => {
    const { actor, fakes } = await signedInSession();
    const stale = deferred<Me>();
    fakes.fetchMe.mockImplementationOnce(() => stale.promise).mockResolvedValueOnce(me({ licensesAccepted: true }));

    actor.send({ type: 'licenses.accepted' });
    actor.send({ type: 'licenses.accepted' });
    stale.resolve(me({ licensesAccepted: false }));
    const snapshot = await waitFor(actor, isSignedInIdle);
    expect(fakes.fetchMe).toHaveBeenCalledTimes(3);
    expect(snapshot.context.me?.licensesAccepted).toBe(true);
  });

  it('signs out: forgets the token and hands over to the provider (revoke + end session)', async () => {
    const { actor, fakes } = await signedInSession();
    actor.send({ type: 'session.signOut' });

    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toBe('signingOut');
    expect(sessionStatus(snapshot)).toBe('signingOut');
    expect(snapshot.context.accessToken).toBeNull();
    expect(fakes.signOut).toHaveBeenCalledTimes(1);
  });

  it('ends up signed out, with the error logged, when the provider cannot end the session', async () => {
    const { actor, logError } = await signedInSession({ signOut: async () => Promise.reject(new Error('no end_session_endpoint')) });
    actor.send({ type: 'session.signOut' });
    const snapshot = await waitFor(actor, (s) => s.matches('signedOut'));
    expect(snapshot.context.error).toBe('no end_session_endpoint');
    expect(logError).toHaveBeenCalled();
  });

  it('ignores sign-in requests while already signed in', async () => {
    const { actor, fakes } = await signedInSession();
    expect(actor.getSnapshot().can({ type: 'session.signIn' })).toBe(false);
    actor.send({ type: 'session.signIn', redirect: '/all' });
    expect(isSignedInIdle(actor.getSnapshot())).toBe(true);
    expect(fakes.startSignIn).not.toHaveBeenCalled();
  });
});

describe('session: status the views read', () => {
  it.each([
    [{ value: 'checking' }, 'loading'],
    [{ value: 'loadingPermissions' }, 'loading'],
    [{ value: 'completingSignIn' }, 'loading'],
    [{ value: 'redirecting' }, 'signingIn'],
    [{ value: 'signedOut' }, 'signingIn'],
    [{ value: { signedIn: 'idle' } }, 'signedIn'],
    [{ value: { signedIn: { renewing: 'retryWait' } } }, 'signedIn'],
    [{ value: 'denied' }, 'denied'],
    [{ value: 'failed' }, 'denied'],
    [{ value: 'signingOut' }, 'signingOut'],
    [{ value: 'finishingSignOut' }, 'signingOut'],
  ] as const)('%o reads as %s', (state, status) => {
    const snapshot = sessionMachine.resolveState({
      value: state.value,
      context: {
        location: 'app',
        redirect: undefined,
        accessToken: null,
        expiresAt: null,
        scopes: [],
        claims: null,
        user: null,
        me: null,
        error: null,
        source: null,
      },
    });
    expect(sessionStatus(snapshot)).toBe(status);
  });
});
