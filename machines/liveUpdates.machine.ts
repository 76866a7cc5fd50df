import { assign, enqueueActions, fromCallback, setup } from 'xstate';
import { ORGANIZATION_CHANGES, type OrganizationChange } from '../core/schemas/organization-events';

/**
 * Following one organization's changes (issue 12; ARCHITECTURE.md "Heavy work off the request
 * thread": server-sent events push list changes to open pages). The stream is an injected actor
 * that opens GET organizations/{orgId}/events and reports back; the machine says when the pages
 * should read again (each change, and everything whenever a stream opens), notices a stream gone quiet (no heartbeat), and connects again after a growing
 * pause. A stream the server refuses (403, 404) is not tried again. Pure: no fetch and no timers of
 * its own; delays are the actor system's.
 */

export interface LiveUpdatesInput {
  /** An organization id, or `all` (scope All). */
  orgId: string;
}

export interface LiveUpdatesContext {
  orgId: string;
  /** Connections lost in a row; 0 once one opens. Sets the pause before the next try. */
  failures: number;
  /** Why the last connection ended, for the status line; null while none has. */
  lastError: string | null;
  /** The HTTP status of a refused stream. */
  refusedStatus: number | null;
}

/** What the stream actor reports (it is the only sender of `stream.*`), and what the page may ask. */
export type LiveUpdatesEvent =
  /** The server answered 200: changes from now on will be heard. */
  | { type: 'stream.open' }
  /** A heartbeat (a comment line): the connection is alive. */
  | { type: 'stream.beat' }
  | { type: 'stream.change'; change: OrganizationChange }
  /** The connection ended or failed (network, server restart, 5xx, 401 while the session renews). */
  | { type: 'stream.lost'; reason: string }
  /** The server will not stream this organization to this user (403, 404). */
  | { type: 'stream.refused'; status: number }
  /** Try now rather than after the pause (the browser is back online). */
  | { type: 'connection.retry' };

/** Emitted for the pages: read this list again. */
export type LiveUpdatesEmitted = { type: 'organization.changed'; change: OrganizationChange };

/** Tags the pages ask with hasTag: `live` while changes are heard, `down` while they may be missed. */
export type LiveUpdatesTag = 'live' | 'down';

/** The server sends a heartbeat every 15 s: three missed mean the connection is gone, whatever the socket says. */
export const STALE_AFTER_MS = 45_000;
/** Longest pause between two tries. */
export const MAX_RETRY_MS = 30_000;

/** The pause before try number `failures + 1`: 1 s, 2 s, 4 s, … up to 30 s. */
export function retryDelay(failures: number): number {
  return Math.min(MAX_RETRY_MS, 1000 * 2 ** Math.max(0, failures - 1));
}

const notProvided = fromCallback<LiveUpdatesEvent, LiveUpdatesInput>(() => {
  throw new Error('liveUpdatesMachine: provide the stream actor (src/app/organization-events.ts)');
});

export const liveUpdatesMachine = setup({
  types: {
    context: {} as LiveUpdatesContext,
    events: {} as LiveUpdatesEvent,
    input: {} as LiveUpdatesInput,
    emitted: {} as LiveUpdatesEmitted,
    tags: {} as LiveUpdatesTag,
  },
  actors: {
    stream: notProvided,
  },
  delays: {
    retryDelay: ({ context }) => retryDelay(context.failures),
    staleAfter: STALE_AFTER_MS,
  },
  actions: {
    tell: enqueueActions(({ event, enqueue }) => {
      if (event.type === 'stream.change') enqueue.emit({ type: 'organization.changed', change: event.change });
    }),
    /**
     * Every list reads again: what changed while no stream was open is unknown — after a lost connection,
     * and on the first open too, as a list read before the stream opened missed what changed in between.
     */
    tellEverything: enqueueActions(({ enqueue }) => {
      for (const change of ORGANIZATION_CHANGES) enqueue.emit({ type: 'organization.changed', change });
    }),
    opened: assign({ failures: 0, lastError: null }),
    lost: assign({
      failures: ({ context }) => context.failures + 1,
      lastError: ({ event }) => (event.type === 'stream.lost' ? event.reason : 'No heartbeat from the server'),
    }),
    refused: assign({ refusedStatus: ({ event }) => (event.type === 'stream.refused' ? event.status : null) }),
  },
}).createMachine({
  id: 'liveUpdates',
  context: ({ input }) => ({ orgId: input.orgId, failures: 0, lastError: null, refusedStatus: null }),
  initial: 'streaming',
  states: {
    streaming: {
      // One stream for both substates: leaving `streaming` stops it (and aborts the request).
      invoke: { src: 'stream', input: ({ context }) => ({ orgId: context.orgId }) },
      initial: 'connecting',
      states: {
        connecting: {
          tags: ['down'],
          on: {
            'stream.open': { target: 'open', actions: ['opened', 'tellEverything'] },
          },
        },
        open: {
          tags: ['live'],
          // Re-entering restarts the wait for the next sign of life.
          after: { staleAfter: { target: '#liveUpdates.waiting', actions: 'lost' } },
          on: {
            'stream.change': { target: 'open', reenter: true, actions: 'tell' },
            'stream.beat': { target: 'open', reenter: true },
          },
        },
      },
      on: {
        'stream.lost': { target: 'waiting', actions: 'lost' },
        'stream.refused': { target: 'refused', actions: 'refused' },
      },
    },
    /** Disconnected: tries again after retryDelay(failures). */
    waiting: {
      tags: ['down'],
      after: { retryDelay: 'streaming' },
      on: { 'connection.retry': 'streaming' },
    },
    /** The user may not follow this organization: the pages fall back to reading on their own. */
    refused: {
      tags: ['down'],
    },
  },
});
