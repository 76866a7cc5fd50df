import { createContext, useContext, useMemo, useRef, type ReactNode } from 'react';
import { createApiClient, type ApiClient } from '../api/client';
import { getAccessToken, useSessionActions } from '../auth/session';
import { useNotify } from '../ui/notifications/notifications-provider';

export const ApiContext = createContext<ApiClient | null>(null);

/**
 * Creates the app's one API client and wires it to the session (token, 401) and the toaster.
 * The collaborators are read through refs so the client is created once, not per render.
 */
export function ApiProvider({ children }: { children: ReactNode }) {
  const actions = useSessionActions();
  const notify = useNotify();
  const latest = useRef({ actions, notify });
  latest.current = { actions, notify };
  const client = useMemo(
    () =>
      createApiClient({
        baseUrl: window.location.origin,
        getAccessToken,
        onUnauthorized: () => latest.current.actions.reportUnauthorized(),
        notify: (notice) => latest.current.notify(notice),
        readCookies: () => document.cookie,
      }),
    [],
  );
  return <ApiContext.Provider value={client}>{children}</ApiContext.Provider>;
}

export function useApi(): ApiClient {
  const client = useContext(ApiContext);
  if (!client) throw new Error('useApi needs an ApiProvider');
  return client;
}
