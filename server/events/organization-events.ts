import type { OrganizationChange } from '../../core/schemas/organization-events';

/** Hears the changes of the organizations it subscribed to. */
export type OrganizationListener = (organizationId: string, change: OrganizationChange) => void;

/**
 * This process's hub of organization changes: writes publish after they commit, and each open event
 * stream (GET organizations/{orgId}/events) subscribes to the organizations its user reaches. It
 * holds no history: a page that connects (again) reads its lists first.
 */
export interface OrganizationEvents {
  publish(organizationId: string, change: OrganizationChange): void;
  /** Hears the changes of `organizationIds` (every organization when null) until the returned function is called. */
  subscribe(organizationIds: readonly string[] | null, listener: OrganizationListener): () => void;
}

export function createOrganizationEvents(onListenerError: (err: unknown) => void = () => undefined): OrganizationEvents {
  const subscriptions = new Set<{ organizationIds: ReadonlySet<string> | null; listener: OrganizationListener }>();
  return {
    publish(organizationId, change) {
      for (const { organizationIds, listener } of [...subscriptions]) {
        if (organizationIds !== null && !organizationIds.has(organizationId)) continue;
        // One broken stream must not keep the others from hearing it.
        try {
          listener(organizationId, change);
        } catch (err) {
          onListenerError(err);
        }
      }
    },
    subscribe(organizationIds, listener) {
      const subscription = { organizationIds: organizationIds === null ? null : new Set(organizationIds), listener };
      subscriptions.add(subscription);
      return () => {
        subscriptions.delete(subscription);
      };
    },
  };
}

/**
 * Publishes at most one change of each kind per organization every `intervalMs`: the first at once,
 * later ones within the interval as one at its end, so the last state is never missed (a search's
 * progress moves many times a second; pages need it at most twice a second). `close` drops what waits.
 */
export function throttled(events: Pick<OrganizationEvents, 'publish'>, intervalMs: number): Pick<OrganizationEvents, 'publish'> & { close(): void } {
  const windows = new Map<string, { timer: ReturnType<typeof setTimeout>; pending: boolean }>();
  const open = (key: string, organizationId: string, change: OrganizationChange) => {
    const timer = setTimeout(() => {
      const window = windows.get(key);
      windows.delete(key);
      if (window?.pending) {
        events.publish(organizationId, change);
        open(key, organizationId, change);
      }
    }, intervalMs);
    timer.unref?.();
    windows.set(key, { timer, pending: false });
  };
  return {
    publish(organizationId, change) {
      const key = `${organizationId}\n${change}`;
      const window = windows.get(key);
      if (window) {
        window.pending = true;
        return;
      }
      events.publish(organizationId, change);
      open(key, organizationId, change);
    },
    close() {
      for (const { timer } of windows.values()) clearTimeout(timer);
      windows.clear();
    },
  };
}
