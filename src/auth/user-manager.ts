/**
 * The oidc-client-ts UserManager, configured from GET /api/client-config (spec 7.2, 9).
 * The session machine drives renewal, so the library's automatic renew stays off; its timers only raise events.
 */
import { UserManager, WebStorageStateStore, type UserManagerSettings } from 'oidc-client-ts';
import { SIGN_IN_SCOPES } from '../../core/claims';
import { ClientConfig } from '../../core/schemas/me';
import { provideDigestOutsideSecureContexts } from './digest-outside-secure-contexts';
import { CALLBACK_PATH, LOGGED_OUT_PATH, SILENT_RENEW_PATH } from './routes';

export function userManagerSettings(config: ClientConfig, origin: string, storage: { local: Storage; session: Storage }): UserManagerSettings {
  return {
    authority: config.authority,
    client_id: config.clientId,
    redirect_uri: `${origin}${CALLBACK_PATH}`,
    silent_redirect_uri: `${origin}${SILENT_RENEW_PATH}`,
    post_logout_redirect_uri: `${origin}${LOGGED_OUT_PATH}`,
    // Authorization code; PKCE with S256 is the library default.
    response_type: 'code',
    scope: config.scope || SIGN_IN_SCOPES,
    // The machine renews (with its own 10 s timeout and 5 s retry) when session-actors' watchTokens says the token is
    // expiring: 60 s before expiry, or a third of a shorter lifetime (the library's notice is fixed, hence unused).
    automaticSilentRenew: false,
    // The ID token carries the profile; the embedded provider's userinfo refuses the API's JWT access token.
    loadUserInfo: false,
    // Revoking the refresh token ends the grant, and the API refuses the grant's access tokens from then on. Never
    // 'access_token': the provider refuses to revoke a JWT (unsupported_token_type), an error at every sign-out.
    revokeTokenTypes: ['refresh_token'],
    // Spec 9: silent request timeout 10 s.
    silentRequestTimeoutInSeconds: 10,
    // Spec 9: session check every 2 s; the monitor is what raises userSignedOut when the provider session ends.
    monitorSession: true,
    checkSessionIntervalInSeconds: 2,
    // Spec 9: abandoned sign-in state is stale after 15 minutes.
    staleStateAgeInSeconds: 900,
    // Spec 9: sign-in state in local storage under "oidc.", the user in session storage.
    stateStore: new WebStorageStateStore({ store: storage.local, prefix: 'oidc.' }),
    userStore: new WebStorageStateStore({ store: storage.session, prefix: 'oidc.' }),
  };
}

export function createUserManager(config: ClientConfig, origin = window.location.origin): UserManager {
  // PKCE's SHA-256 on a server reached over plain HTTP by its name or address (no crypto.subtle there).
  provideDigestOutsideSecureContexts();
  const manager = new UserManager(userManagerSettings(config, origin, { local: localStorage, session: sessionStorage }));
  // Sign-ins abandoned at the provider leave state behind; clear it once per page load.
  void manager.clearStaleState().catch(() => undefined);
  return manager;
}

export async function fetchClientConfig(fetchFn: typeof fetch = fetch): Promise<ClientConfig> {
  const response = await fetchFn('/api/client-config', { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`GET /api/client-config failed with status ${response.status}`);
  return ClientConfig.parse(await response.json());
}

let shared: Promise<UserManager> | undefined;

/** The page's one UserManager; built on first use, and rebuilt on the next use if the configuration could not be read. */
export function getUserManager(): Promise<UserManager> {
  shared ??= fetchClientConfig()
    .then((config) => createUserManager(config))
    .catch((error: unknown) => {
      shared = undefined;
      throw error;
    });
  return shared;
}
