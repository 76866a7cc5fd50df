import { createContext, useContext, useMemo, useRef, type ReactNode } from 'react';
import { createApiClient, type ApiClient } from '../api/client';
import { getAccessToken, useSessionActions } from '../auth/session';
import { useNotify } from '../ui/notifications/notifications-provider';
import { liveEventStream } from './event-stream';
import { OrganizationEventsProvider } from './organization-events';

export const ApiContext = createContext<ApiClient | null>(null);

/**
 * Creates the app's one API client and wires it to the session (token, 401) and the toaster, and
 * the organization event streams the pages follow (organization-events.tsx).
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
  // Open pages hear of changes over server-sent events, with the same token and 401 handling as the calls.
  const openEvents = useMemo(
    () => liveEventStream({ baseUrl: window.location.origin, getAccessToken, onUnauthorized: () => latest.current.actions.reportUnauthorized() }),
    [],
  );
  return (
    <ApiContext.Provider value={client}>
      <OrganizationEventsProvider open={openEvents}>{children}</OrganizationEventsProvider>
    </ApiContext.Provider>
  );
}

export function useApi(): ApiClient {
  const client = useContext(ApiContext);
  if (!client) throw new Error('useApi needs an ApiProvider');
  return client;
}
