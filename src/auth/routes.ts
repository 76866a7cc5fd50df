/**
 * The sign-in flow's routes (spec 2.1) and the return path that survives the trip to the identity provider.
 * The identity provider must allow CALLBACK_PATH and SILENT_RENEW_PATH as redirect URIs and LOGGED_OUT_PATH
 * as a post-logout redirect URI (see user-manager.ts).
 */
import { ALL_ORGANIZATIONS } from '../../core/permissions';
import type { Me } from '../../core/schemas/me';
import type { SessionInput } from '../../machines/session.machine';

export const AUTHENTICATION_PATH = '/authentication';
export const CALLBACK_PATH = '/authentication/callback';
export const SILENT_RENEW_PATH = '/authentication/silent-renew';
export const LOGGED_OUT_PATH = '/authentication/logged-out';

/**
 * Only a path on this site may be a return target; anything else (an absolute or protocol-relative URL)
 * would make the sign-in flow an open redirect.
 */
export function safeRedirect(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return undefined;
  return value;
}

/** `/authentication?redirect=<full path>`, where RequireSession sends a visitor who is not signed in. */
export function authenticationUrl(redirect: string | undefined): string {
  return redirect === undefined ? AUTHENTICATION_PATH : `${AUTHENTICATION_PATH}?${new URLSearchParams({ redirect })}`;
}

export function isAuthenticationRoute(pathname: string): boolean {
  return pathname === AUTHENTICATION_PATH || pathname.startsWith(`${AUTHENTICATION_PATH}/`);
}

/** Where a signed-in user lands when nothing asked for a page: their first organization, else all (spec 2.1). */
export function homePath(me: Pick<Me, 'organizations'> | null): string {
  return `/${me?.organizations[0]?.id ?? ALL_ORGANIZATIONS}`;
}

type UrlParts = Pick<Location, 'pathname' | 'search' | 'hash'>;

/**
 * The path to come back to after signing in from `location`: the full path of an app page, the `redirect`
 * parameter of the Authentication page, nothing for the other sign-in flow pages.
 */
export function returnPathFrom(location: UrlParts): string | undefined {
  if (location.pathname === AUTHENTICATION_PATH) return safeRedirect(new URLSearchParams(location.search).get('redirect'));
  if (isAuthenticationRoute(location.pathname)) return undefined;
  return `${location.pathname}${location.search}${location.hash}`;
}

/** How the session machine starts on the page the SPA was loaded on. */
export function sessionInputFrom(location: UrlParts): SessionInput {
  switch (location.pathname) {
    case CALLBACK_PATH:
      return { location: 'callback' };
    case SILENT_RENEW_PATH:
      return { location: 'silentRenew' };
    case LOGGED_OUT_PATH:
      return { location: 'loggedOut' };
    default: {
      const redirect = returnPathFrom(location);
      return redirect === undefined ? { location: 'app' } : { location: 'app', redirect };
    }
  }
}
