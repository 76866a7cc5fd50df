/**
 * The live session effects (src/auth/session-actors.ts) over a fake oidc-client-ts UserManager and a fake fetch,
 * driven through the real session machine.
 */
import type { User, UserManager } from 'oidc-client-ts';
import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { API_SCOPE, NO_SCOPE_MESSAGE } from '../../../core/claims';
import { SessionUnauthorizedError, sessionMachine, type SessionInput } from '../../../machines/session.machine';
import { createSessionImplementations, renewalNoticeSeconds, toSessionUser, type SessionEdge } from '../../../src/auth/session-actors';
import { userManagerSettings } from '../../../src/auth/user-manager';
import { analystClaims, me } from './fake-session';

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** An unsigned JWT: the SPA only reads the access token's claims, the API verifies it. */
const jwt = (payload: object) => `${b64({ alg: 'none' })}.${b64(payload)}.sig`;

/** The parts of an oidc-client-ts User the session reads; overrides may replace any of them. */
function oidcUser(overrides: { claims?: object; scope?: string; [field: string]: unknown } = {}): User {
  const { claims = analystClaims, scope = `openid profile ${API_SCOPE}`, ...rest } = overrides;
  return {
    access_token: jwt({ ...claims, scope }),
    profile: { sub: 'user-1' },
    expires_at: 2_000_000_000,
    expires_in: 3600,
    expired: false,
    scopes: ['openid'],
    state: undefined,
    ...rest,
  } as unknown as User;
}

type Handler = (...args: unknown[]) => void;

function fakeUserManager(user: User | null = oidcUser()) {
  const handlers: Record<string, Handler[]> = {};
  const on = (name: string) => (cb: Handler) => {
    (handlers[name] ??= []).push(cb);
    return () => (handlers[name] = (handlers[name] ?? []).filter((h) => h !== cb));
  };
  const manager = {
    getUser: vi.fn(async () => user),
    removeUser: vi.fn(async () => undefined),
    signinRedirect: vi.fn(() => new Promise<void>(() => {})),
    signinCallback: vi.fn(async () => oidcUser({ state: { redirect: '/all/hits?state=pending' } })),
    // As oidc-client-ts does: the renewed user is stored and announced (userLoaded) before signinSilent resolves.
    signinSilent: vi.fn(async () => {
      const renewed = oidcUser({ access_token: jwt({ ...analystClaims, scope: API_SCOPE, jti: 'renewed' }) });
      fire('userLoaded', renewed);
      return renewed;
    }),
    revokeTokens: vi.fn(async () => undefined),
    signoutRedirect: vi.fn(() => new Promise<void>(() => {})),
    signoutCallback: vi.fn(async () => undefined),
    events: {
      addUserLoaded: on('userLoaded'),
      addAccessTokenExpired: on('expired'),
      addSilentRenewError: on('renewError'),
      addUserSignedOut: on('signedOut'),
    },
  };
  const fire = (name: string, ...args: unknown[]) => (handlers[name] ?? []).forEach((h) => h(...args));
  return { manager, fire, handlers };
}

function edgeWith(manager: ReturnType<typeof fakeUserManager>['manager'], overrides: Partial<SessionEdge> = {}): SessionEdge {
  return {
    userManager: async () => manager as unknown as UserManager,
    fetch: vi.fn(async () => new Response(JSON.stringify(me), { status: 200 })),
    location: () => ({ pathname: '/all/cases', search: '?page=2', hash: '' }),
    assign: vi.fn(),
    log: vi.fn(),
    ...overrides,
  };
}

function start(edge: SessionEdge, input: SessionInput = { location: 'app', redirect: '/all/cases?page=2' }) {
  const actor = createActor(sessionMachine.provide(createSessionImplementations(edge)), { input });
  actor.start();
  return actor;
}

describe('live session effects', () => {
  it('reads claims and scopes from the access token itself', () => {
    const user = toSessionUser(oidcUser({ claims: { ...analystClaims, organization: 'org-9' }, scope: 'openid access' }));
    expect(user.scopes).toEqual(['openid', 'access']);
    expect(user.claims).toEqual({ ...analystClaims, organization: ['org-9'] });
  });

  it('falls back to the ID token claims and the granted scope when the access token is opaque', () => {
    const user = toSessionUser(
      oidcUser({ access_token: 'opaque', scopes: ['openid', 'access'], profile: { sub: 'u-2', ScopeLevel: 'All' } }),
    );
    expect(user.scopes).toEqual(['openid', 'access']);
    expect(user.claims).toMatchObject({ sub: 'u-2', ScopeLevel: 'All' });
  });

  it('signs in a stored user, reading GET /api/me with the bearer token', async () => {
    const { manager } = fakeUserManager();
    const edge = edgeWith(manager);
    const actor = start(edge);
    const snapshot = await waitFor(actor, (s) => s.matches({ signedIn: 'idle' }));

    expect(snapshot.context.me).toEqual(me);
    const [url, init] = vi.mocked(edge.fetch).mock.calls[0] ?? [];
    expect(url).toBe('/api/me');
    expect(new Headers(init?.headers).get('Authorization')).toBe(`Bearer ${snapshot.context.accessToken}`);
  });

  it('starts sign-in with the return path kept in the oidc state, after dropping the stored user', async () => {
    const { manager } = fakeUserManager(null);
    start(edgeWith(manager));
    await vi.waitFor(() => expect(manager.signinRedirect).toHaveBeenCalledWith({ state: { redirect: '/all/cases?page=2' } }));
    expect(manager.removeUser).toHaveBeenCalled();
  });

  it('restarting sign-in from inside the app returns to the page the user is on now', async () => {
    const { manager } = fakeUserManager();
    const actor = start(edgeWith(manager, { location: () => ({ pathname: '/org-1/hits', search: '?tab=2', hash: '' }) }));
    await waitFor(actor, (s) => s.matches({ signedIn: 'idle' }));
    actor.send({ type: 'api.unauthorized' });
    await vi.waitFor(() => expect(manager.signinRedirect).toHaveBeenCalledWith({ state: { redirect: '/org-1/hits?tab=2' } }));
  });

  it('completes the callback once, even when the actor is started twice (React StrictMode), and returns to the stored path', async () => {
    const { manager } = fakeUserManager();
    const implementations = createSessionImplementations(edgeWith(manager));
    const machine = sessionMachine.provide(implementations);
    const first = createActor(machine, { input: { location: 'callback' } }).start();
    const second = createActor(machine, { input: { location: 'callback' } }).start();

    const [a, b] = await Promise.all([first, second].map((actor) => waitFor(actor, (s) => s.matches({ signedIn: 'idle' }))));
    expect(manager.signinCallback).toHaveBeenCalledTimes(1);
    expect(a?.context.redirect).toBe('/all/hits?state=pending');
    expect(b?.context.redirect).toBe('/all/hits?state=pending');
  });

  it('ignores a stored return path that leaves the site', async () => {
    const { manager } = fakeUserManager();
    manager.signinCallback.mockResolvedValueOnce(oidcUser({ state: { redirect: 'https://evil.example/' } }));
    const actor = start(edgeWith(manager), { location: 'callback' });
    const snapshot = await waitFor(actor, (s) => s.matches({ signedIn: 'idle' }));
    expect(snapshot.context.redirect).toBeUndefined();
  });

  it('treats a 401 from GET /api/me as a refused token and restarts sign-in', async () => {
    const { manager } = fakeUserManager();
    const fetch = vi.fn(async () => new Response('{"error":"Unauthorized"}', { status: 401 }));
    const actor = start(edgeWith(manager, { fetch }));
    const snapshot = await waitFor(actor, (s) => s.matches('redirecting'));
    expect(snapshot.context.error).toBe(new SessionUnauthorizedError().message);
  });

  it('shows the generic failure message when GET /api/me fails otherwise', async () => {
    const { manager } = fakeUserManager();
    const fetch = vi.fn(async () => new Response('oops', { status: 500 }));
    const actor = start(edgeWith(manager, { fetch }));
    const snapshot = await waitFor(actor, (s) => s.matches('failed'));
    expect(snapshot.context.error).toBe('Your request failed. Please try again later.');
  });

  it('denies with the verbatim message from the access token claims', async () => {
    const { manager } = fakeUserManager(oidcUser({ claims: { ...analystClaims, ScopeLevel: undefined } }));
    const actor = start(edgeWith(manager));
    const snapshot = await waitFor(actor, (s) => s.matches('denied'));
    expect(snapshot.context.error).toBe(NO_SCOPE_MESSAGE);
  });

  /** A user whose JWT access token lives `lifetime` seconds and has `left` of them to go. */
  const tokenFor = (lifetime: number, left = lifetime, jti = 'first') => {
    const now = Math.floor(Date.now() / 1000);
    const iat = now + left - lifetime;
    return oidcUser({ access_token: jwt({ ...analystClaims, scope: API_SCOPE, iat, exp: iat + lifetime, jti }), expires_in: left });
  };

  it('renews once per token, 60 s before expiry, and stops listening after sign-out', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { manager, handlers } = fakeUserManager(tokenFor(900));
      manager.signinSilent.mockImplementation(async () => {
        const renewed = tokenFor(900, 900, 'renewed');
        (handlers.userLoaded ?? []).forEach((h) => h(renewed));
        return renewed;
      });
      const actor = start(edgeWith(manager));
      await waitFor(actor, (s) => s.matches({ signedIn: 'idle' }));
      await vi.waitFor(() => expect(handlers.userLoaded).toHaveLength(1));

      const before = actor.getSnapshot().context.accessToken;
      await vi.advanceTimersByTimeAsync(839_000);
      expect(manager.signinSilent).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1_000);
      expect(manager.signinSilent).toHaveBeenCalledTimes(1);
      const renewed = await waitFor(actor, (s) => s.matches({ signedIn: 'idle' }) && s.context.accessToken !== before);
      expect(renewed.context.source).toBe('renewed');

      actor.send({ type: 'session.signOut' });
      expect(handlers.userLoaded).toHaveLength(0);
      expect(handlers.signedOut).toHaveLength(0);
      await vi.advanceTimersByTimeAsync(900_000);
      expect(manager.signinSilent).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('renews a 60 s token once, a third of its lifetime before expiry, not every second', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { manager, handlers } = fakeUserManager(tokenFor(60));
      manager.signinSilent.mockImplementation(async () => {
        const renewed = tokenFor(60, 60, `renewed-${manager.signinSilent.mock.calls.length}`);
        (handlers.userLoaded ?? []).forEach((h) => h(renewed));
        return renewed;
      });
      const actor = start(edgeWith(manager));
      await waitFor(actor, (s) => s.matches({ signedIn: 'idle' }));
      await vi.waitFor(() => expect(handlers.userLoaded).toHaveLength(1));
      // Renewals at 40 s and 80 s: two in 70 s would be one too many; 69 was the bug.
      await vi.advanceTimersByTimeAsync(39_000);
      expect(manager.signinSilent).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(31_000);
      expect(manager.signinSilent).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(11_000);
      expect(manager.signinSilent).toHaveBeenCalledTimes(2);
      actor.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('asks for renewal at once when the token was loaded with under 60 s left', async () => {
    const { manager } = fakeUserManager(tokenFor(900, 30));
    const actor = start(edgeWith(manager));
    await vi.waitFor(() => expect(manager.signinSilent).toHaveBeenCalled());
    await waitFor(actor, (s) => s.matches({ signedIn: 'idle' }));
  });

  it('sets the renewal notice to 60 s, or a third of a shorter lifetime', () => {
    expect([900, 180, 75, 60].map(renewalNoticeSeconds)).toEqual([60, 60, 25, 20]);
  });

  it('restarts sign-in when the provider reports the user signed out elsewhere', async () => {
    const { manager, fire, handlers } = fakeUserManager();
    const actor = start(edgeWith(manager));
    await waitFor(actor, (s) => s.matches({ signedIn: 'idle' }));
    await vi.waitFor(() => expect(handlers.signedOut).toHaveLength(1));
    fire('signedOut');
    expect(actor.getSnapshot().value).toBe('redirecting');
  });

  it('signs out by revoking the tokens and redirecting to the end-session endpoint', async () => {
    const { manager } = fakeUserManager();
    const edge = edgeWith(manager);
    const actor = start(edge);
    await waitFor(actor, (s) => s.matches({ signedIn: 'idle' }));
    actor.send({ type: 'session.signOut' });
    await vi.waitFor(() => expect(manager.signoutRedirect).toHaveBeenCalled());
    expect(manager.revokeTokens).toHaveBeenCalled();
    expect(edge.log).not.toHaveBeenCalled();
  });

  it('revokes only the refresh token: the provider refuses to revoke a JWT access token, which would log an error', () => {
    const settings = userManagerSettings({ authority: 'http://localhost:8080/oidc', clientId: 'locus-spa', scope: '', embeddedProvider: true }, 'http://localhost:8080', {
      local: localStorage,
      session: sessionStorage,
    });
    expect(settings.revokeTokenTypes).toEqual(['refresh_token']);
  });

  it('still signs out locally, and shows the logged-out page, when the provider has no end-session endpoint', async () => {
    const { manager } = fakeUserManager();
    manager.revokeTokens.mockRejectedValueOnce(new Error('no revocation endpoint'));
    manager.signoutRedirect.mockRejectedValueOnce(new Error('no end session endpoint'));
    const edge = edgeWith(manager);
    const actor = start(edge);
    await waitFor(actor, (s) => s.matches({ signedIn: 'idle' }));
    actor.send({ type: 'session.signOut' });
    await waitFor(actor, (s) => s.matches('signedOut'));
    expect(manager.removeUser).toHaveBeenCalled();
    expect(edge.assign).toHaveBeenCalledWith('/authentication/logged-out');
  });

  it('finishes the end-session callback only when the provider sent state back', async () => {
    const { manager } = fakeUserManager();
    const direct = start(edgeWith(manager, { location: () => ({ pathname: '/authentication/logged-out', search: '', hash: '' }) }), { location: 'loggedOut' });
    await waitFor(direct, (s) => s.matches('signedOut'));
    expect(manager.signoutCallback).not.toHaveBeenCalled();

    const returned = start(edgeWith(manager, { location: () => ({ pathname: '/authentication/logged-out', search: '?state=abc', hash: '' }) }), {
      location: 'loggedOut',
    });
    await waitFor(returned, (s) => s.matches('signedOut'));
    expect(manager.signoutCallback).toHaveBeenCalledTimes(1);
  });
});
