import { useCallback, useContext, useEffect, useRef, useSyncExternalStore } from 'react';
import type { OrganizationChange } from '../../core/schemas/organization-events';
import { OrganizationEventsContext, type LiveStatus } from './organization-events';

/** Changes heard within this time make one read, not one per change (a burst of decisions, a search's progress). */
export const CHANGE_BATCH_MS = 300;

/**
 * Follows an organization's changes (`all`: every one the user reaches) while the component is on
 * screen: `onChange` runs, at most once per CHANGE_BATCH_MS, after a change of one of `changes`.
 * `orgId` null follows nothing (the user may not read hits there). Returns how the stream stands,
 * so a component can read on its own while it is not `live`.
 */
export function useOrganizationEvents(orgId: string | null, changes: readonly OrganizationChange[], onChange: () => void): LiveStatus {
  const hub = useContext(OrganizationEventsContext);
  const latest = useRef(onChange);
  latest.current = onChange;
  const wanted = changes.join(' ');

  useEffect(() => {
    if (!hub || orgId === null) return;
    let batch: ReturnType<typeof setTimeout> | undefined;
    const stop = hub.follow(orgId, (change) => {
      if (!wanted.split(' ').includes(change) || batch !== undefined) return;
      batch = setTimeout(() => {
        batch = undefined;
        latest.current();
      }, CHANGE_BATCH_MS);
    });
    return () => {
      stop();
      clearTimeout(batch);
    };
  }, [hub, orgId, wanted]);

  const subscribe = useCallback((listener: () => void) => (hub ? hub.onStatus(listener) : () => undefined), [hub]);
  const status = useCallback((): LiveStatus => (hub && orgId !== null ? hub.status(orgId) : 'off'), [hub, orgId]);
  return useSyncExternalStore(subscribe, status, status);
}
