import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, initialTransition, SimulatedClock, transition, type AnyActorRef } from 'xstate';
import type { OrganizationChange } from '../../../core/schemas/organization-events';
import {
  liveUpdatesMachine,
  MAX_RETRY_MS,
  retryDelay,
  STALE_AFTER_MS,
  type LiveUpdatesContext,
  type LiveUpdatesEvent,
} from '../../../machines/liveUpdates.machine';

/** A stream that does nothing on its own: the test sends its reports. */
const quiet = liveUpdatesMachine.provide({ actors: { stream: fromCallback(() => undefined) } });
const at = (value: object | string, context: Partial<LiveUpdatesContext> = {}) =>
  quiet.resolveState({ value: value as never, context: { orgId: 'org-a', failures: 0, lastError: null, refusedStatus: null, ...context } });
const emitted = (actions: readonly { type: string; params?: unknown }[]) =>
  actions.filter((a) => a.type === 'xstate.emit').map((a) => (a.params as { event: { change: OrganizationChange } }).event.change);
const delayOf = (actions: readonly { type: string; params?: unknown }[]) =>
  actions.filter((a) => a.type === 'xstate.raise').map((a) => (a.params as { delay?: number }).delay);

describe('retry pauses', () => {
  it('double from one second up to thirty', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 16_000, MAX_RETRY_MS, MAX_RETRY_MS, MAX_RETRY_MS]);
  });
});

describe('liveUpdatesMachine transitions (pure)', () => {
  it('starts connecting, with the organization’s stream started and the page told it may miss changes', () => {
    const [start, actions] = initialTransition(quiet, { orgId: 'org-a' });
    expect(start.value).toEqual({ streaming: 'connecting' });
    expect(start.hasTag('down')).toBe(true);
    expect(actions.map((a) => a.type)).toEqual(['xstate.spawnChild']);
  });

  it('connecting → open when the server answers: every list reads again the first time too (a change made between a list’s first read and the stream opening was not heard)', () => {
    const [open, actions] = transition(quiet, at({ streaming: 'connecting' }), { type: 'stream.open' });
    expect(open.value).toEqual({ streaming: 'open' });
    expect(open.hasTag('live')).toBe(true);
    expect(emitted(actions)).toEqual(['hits', 'searches', 'profiles']);
    // Three missed heartbeats later the connection counts as gone.
    expect(delayOf(actions)).toEqual([STALE_AFTER_MS]);
  });

  it('connecting → open after a lost connection: every list reads again (changes may have been missed) and the failures reset', () => {
    const [open, actions] = transition(quiet, at({ streaming: 'connecting' }, { failures: 3, lastError: 'Network error' }), { type: 'stream.open' });
    expect(open.value).toEqual({ streaming: 'open' });
    expect(emitted(actions)).toEqual(['hits', 'searches', 'profiles']);
    expect(open.context).toMatchObject({ failures: 0, lastError: null });
  });

  it('ignores changes heard before the stream is open', () => {
    const [still, actions] = transition(quiet, at({ streaming: 'connecting' }), { type: 'stream.change', change: 'hits' });
    expect(still.value).toEqual({ streaming: 'connecting' });
    expect(emitted(actions)).toEqual([]);
  });

  it('open: each change is passed on to the pages, and restarts the wait for a sign of life', () => {
    for (const change of ['hits', 'searches'] as const) {
      const [open, actions] = transition(quiet, at({ streaming: 'open' }), { type: 'stream.change', change });
      expect(open.value).toEqual({ streaming: 'open' });
      expect(emitted(actions)).toEqual([change]);
      expect(actions.map((a) => a.type)).toContain('xstate.cancel');
      expect(delayOf(actions)).toEqual([STALE_AFTER_MS]);
    }
  });

  it('open: a heartbeat keeps the stream open and restarts the wait', () => {
    const [open, actions] = transition(quiet, at({ streaming: 'open' }), { type: 'stream.beat' });
    expect(open.value).toEqual({ streaming: 'open' });
    expect(emitted(actions)).toEqual([]);
    expect(delayOf(actions)).toEqual([STALE_AFTER_MS]);
  });

  it('open or connecting → waiting when the stream is lost, counting the failure and keeping why', () => {
    for (const from of ['open', 'connecting']) {
      const [waiting, actions] = transition(quiet, at({ streaming: from }, { failures: 1 }), { type: 'stream.lost', reason: 'The server closed the stream' });
      expect(waiting.value).toBe('waiting');
      expect(waiting.hasTag('down')).toBe(true);
      expect(waiting.context).toMatchObject({ failures: 2, lastError: 'The server closed the stream' });
      // The stream actor stops; the next try is 2 s away.
      expect(actions.map((a) => a.type)).toContain('xstate.stopChild');
      expect(delayOf(actions)).toEqual([2000]);
    }
  });

  it('waiting → streaming (connecting again) at once when asked to retry', () => {
    const [again] = transition(quiet, at('waiting', { failures: 4 }), { type: 'connection.retry' });
    expect(again.value).toEqual({ streaming: 'connecting' });
    expect(again.context.failures).toBe(4);
  });

  it('open or connecting → refused on 403 or 404, which is never retried', () => {
    for (const from of ['open', 'connecting']) {
      const [refused, actions] = transition(quiet, at({ streaming: from }), { type: 'stream.refused', status: 403 });
      expect(refused.value).toBe('refused');
      expect(refused.hasTag('down')).toBe(true);
      expect(refused.context.refusedStatus).toBe(403);
      expect(delayOf(actions)).toEqual([]);
    }
    const [stays] = transition(quiet, at('refused'), { type: 'connection.retry' });
    expect(stays.value).toBe('refused');
  });
});

describe('liveUpdatesMachine over time (fake stream, simulated clock)', () => {
  /** A stream actor whose reports the test sends, and which counts how often it was started and stopped. */
  function run() {
    const clock = new SimulatedClock();
    const streams: { orgId: string; stopped: boolean; send(event: LiveUpdatesEvent): void }[] = [];
    const machine = liveUpdatesMachine.provide({
      actors: {
        stream: fromCallback<LiveUpdatesEvent, { orgId: string }>(({ input, sendBack }) => {
          const stream = { orgId: input.orgId, stopped: false, send: sendBack };
          streams.push(stream);
          return () => {
            stream.stopped = true;
          };
        }),
      },
    });
    const actor = createActor(machine, { input: { orgId: 'org-a' }, clock });
    const changes: OrganizationChange[] = [];
    actor.on('organization.changed', (e) => changes.push(e.change));
    actor.start();
    const value = () => actor.getSnapshot().value;
    return { actor: actor as AnyActorRef, clock, streams, changes, value, last: () => streams.at(-1)! };
  }

  it('opens the organization’s stream and passes its changes on', () => {
    const r = run();
    expect(r.last().orgId).toBe('org-a');
    r.last().send({ type: 'stream.open' });
    r.last().send({ type: 'stream.change', change: 'hits' });
    r.last().send({ type: 'stream.change', change: 'searches' });
    expect(r.changes).toEqual(['hits', 'searches', 'profiles', 'hits', 'searches']);
  });

  it('counts a stream silent for 45 s as lost, stops it, and connects again after 1 s with every list read again', () => {
    const r = run();
    r.last().send({ type: 'stream.open' });
    r.clock.increment(STALE_AFTER_MS - 1);
    r.last().send({ type: 'stream.beat' });
    r.clock.increment(STALE_AFTER_MS - 1);
    expect(r.value()).toEqual({ streaming: 'open' });
    r.clock.increment(1);
    expect(r.value()).toBe('waiting');
    expect(r.streams[0]!.stopped).toBe(true);
    r.clock.increment(1000);
    expect(r.value()).toEqual({ streaming: 'connecting' });
    expect(r.streams).toHaveLength(2);
    r.changes.length = 0;
    r.last().send({ type: 'stream.open' });
    expect(r.changes).toEqual(['hits', 'searches', 'profiles']);
  });

  it('waits longer after each failure in a row (1 s, 2 s, 4 s)', () => {
    const r = run();
    for (const pause of [1000, 2000, 4000]) {
      r.last().send({ type: 'stream.lost', reason: 'Network error' });
      r.clock.increment(pause - 1);
      expect(r.value()).toBe('waiting');
      r.clock.increment(1);
      expect(r.value()).toEqual({ streaming: 'connecting' });
    }
    expect(r.streams).toHaveLength(4);
  });

  it('stays refused however long it waits', () => {
    const r = run();
    r.last().send({ type: 'stream.refused', status: 404 });
    r.clock.increment(10 * MAX_RETRY_MS);
    expect(r.value()).toBe('refused');
    expect(r.streams).toHaveLength(1);
    expect(r.last().stopped).toBe(true);
  });

  it('stops the stream when the pages stop following the organization', () => {
    const r = run();
    r.actor.stop();
    expect(r.last().stopped).toBe(true);
  });
});
