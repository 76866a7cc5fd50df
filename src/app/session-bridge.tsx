import { useCallback, useMemo, type ReactNode } from 'react';
import { withLoading } from '../api/loading';
import { useMe, useSessionActions } from '../auth/session';
import { useApi } from './api-provider';
import { StatusPage } from './pages/status-page';
import { ShellSessionContext, type ShellSession } from './shell-session';
import { RECORD_NAMES } from './feature-areas';
import { ChangePasswordButton } from '../account/change-password-button';
import type { BreadcrumbNameLookup } from './layout/breadcrumb-bar';

/** Name of the loading flag while the licence acceptance is being recorded. */
export const ACCEPT_LICENCES_LOADING = 'acceptLicences';

/**
 * Feeds the signed-in shell from src/auth. RequireSession has already dealt with signing in,
 * refusal and signing out; this only bridges the user and the actions the shell needs.
 */
export function SessionBridge({ children }: { children: ReactNode }) {
  const me = useMe();
  const actions = useSessionActions();
  const api = useApi();

  const acceptLicences = useCallback(
    () =>
      withLoading(ACCEPT_LICENCES_LOADING, async () => {
        await api.POST('/api/accept-licenses');
        actions.licensesAccepted();
      }),
    [api, actions],
  );
  const lookupName = useCallback<BreadcrumbNameLookup>(
    ({ routeName, id, params }) => RECORD_NAMES[routeName]?.(api, id, params),
    [api],
  );
  const session = useMemo<ShellSession | null>(
    () => (me ? { me, signOut: actions.signOut, acceptLicences, lookupName, accountActions: <ChangePasswordButton /> } : null),
    [me, actions, acceptLicences, lookupName],
  );

  if (!session) return <StatusPage title="Loading your account…" busy />;
  return <ShellSessionContext.Provider value={session}>{children}</ShellSessionContext.Provider>;
}
