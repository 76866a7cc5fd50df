import { createContext, useEffect, useMemo, type ReactNode } from 'react';
import { createActor, type Actor, type SnapshotFrom } from 'xstate';
import type { OrganizationChange } from '../../core/schemas/organization-events';
import { liveUpdatesMachine } from '../../machines/liveUpdates.machine';
import { eventStreamActor, type OpenEventStream } from './event-stream';

/** How a page's view of an organization stands: `live` while changes are heard, else the page reads on its own. */
export type LiveStatus = 'off' | 'connecting' | 'live' | 'reconnecting' | 'refused';

type LiveUpdatesLogic = typeof liveUpdatesMachine;

/**
 * The app's followed organizations: one stream per organization however many parts of the page
 * follow it (a browser allows six connections to a server over HTTP/1.1), kept a little while
 * after the last one leaves so moving between the hit lists does not reconnect.
 */
export interface OrganizationEventHub {
  /** Hears the organization's changes until the returned function is called. */
  follow(orgId: string, listener: (change: OrganizationChange) => void): () => void;
  status(orgId: string): LiveStatus;
  /** Called whenever any followed organization's status changes. */
  onStatus(listener: () => void): () => void;
  /** Connects now the streams that wait to try again (the browser is back online). */
  retryNow(): void;
  /** Stops every stream (the app goes away); following again starts afresh. */
  close(): void;
}

/** How a liveUpdates machine's state reads for the pages. */
export function liveStatusOf(snapshot: SnapshotFrom<LiveUpdatesLogic>): LiveStatus {
  if (snapshot.matches('refused')) return 'refused';
  if (snapshot.hasTag('live')) return 'live';
  return snapshot.matches('waiting') || snapshot.context.failures > 0 ? 'reconnecting' : 'connecting';
}

export function createOrganizationEventHub(logic: LiveUpdatesLogic, options: { lingerMs?: number } = {}): OrganizationEventHub {
  const lingerMs = options.lingerMs ?? 10_000;
  interface Channel {
    actor: Actor<LiveUpdatesLogic>;
    listeners: Set<(change: OrganizationChange) => void>;
    linger?: ReturnType<typeof setTimeout>;
  }
  const statusOf = (actor: Actor<LiveUpdatesLogic>) => liveStatusOf(actor.getSnapshot());
  const channels = new Map<string, Channel>();
  const statusListeners = new Set<() => void>();
  const statusChanged = () => {
    for (const listener of [...statusListeners]) listener();
  };
  const stop = (orgId: string, channel: Channel) => {
    clearTimeout(channel.linger);
    channel.actor.stop();
    channels.delete(orgId);
    statusChanged();
  };

  const channelOf = (orgId: string): Channel => {
    const existing = channels.get(orgId);
    if (existing) return existing;
    const actor = createActor(logic, { input: { orgId } });
    const channel: Channel = { actor, listeners: new Set() };
    actor.on('organization.changed', ({ change }) => {
      for (const listener of [...channel.listeners]) listener(change);
    });
    let last: LiveStatus | null = null;
    actor.subscribe(() => {
      const now = statusOf(actor);
      if (now !== last) {
        last = now;
        statusChanged();
      }
    });
    channels.set(orgId, channel);
    actor.start();
    return channel;
  };

  return {
    follow(orgId, listener) {
      const channel = channelOf(orgId);
      clearTimeout(channel.linger);
      channel.listeners.add(listener);
      return () => {
        channel.listeners.delete(listener);
        if (channel.listeners.size > 0 || channels.get(orgId) !== channel) return;
        channel.linger = setTimeout(() => stop(orgId, channel), lingerMs);
      };
    },
    status: (orgId) => {
      const channel = channels.get(orgId);
      return channel ? statusOf(channel.actor) : 'off';
    },
    onStatus(listener) {
      statusListeners.add(listener);
      return () => {
        statusListeners.delete(listener);
      };
    },
    retryNow() {
      for (const { actor } of channels.values()) actor.send({ type: 'connection.retry' });
    },
    close() {
      for (const [orgId, channel] of [...channels]) stop(orgId, channel);
    },
  };
}

/** The hub the pages follow organizations through; null (tests, stories): no live updates, the pages read on their own. */
export const OrganizationEventsContext = createContext<OrganizationEventHub | null>(null);

/** Streams organization events over `open` to the pages below (the app gives the API's fetch with the session's token). */
export function OrganizationEventsProvider({ open, children }: { open: OpenEventStream; children: ReactNode }) {
  const hub = useMemo(() => createOrganizationEventHub(liveUpdatesMachine.provide({ actors: { stream: eventStreamActor(open) } })), [open]);
  useEffect(() => {
    const online = () => hub.retryNow();
    window.addEventListener('online', online);
    return () => {
      window.removeEventListener('online', online);
      hub.close();
    };
  }, [hub]);
  return <OrganizationEventsContext.Provider value={hub}>{children}</OrganizationEventsContext.Provider>;
}
