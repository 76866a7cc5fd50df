import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, initialTransition, SimulatedClock, transition } from 'xstate';
import {
  dismissDelay,
  normalizeNotification,
  notificationsMachine,
  validateNotification,
  type NotificationsEmitted,
} from '../../../machines/notifications.machine';

const show = (notification: Parameters<typeof validateNotification>[0]) => ({ type: 'notification.show', notification }) as const;

function start(clock?: SimulatedClock) {
  const actor = createActor(notificationsMachine, clock ? { clock } : {});
  const rejected: NotificationsEmitted[] = [];
  actor.on('notification.rejected', (e) => rejected.push(e));
  actor.start();
  return { actor, rejected, ids: () => actor.getSnapshot().context.notifications.map((n) => n.id) };
}

describe('notification defaults (spec 9)', () => {
  it('shows at the bottom as info for 5000 ms when the caller gives nothing else', () => {
    expect(normalizeNotification({ message: 'Saved' }, 'x')).toEqual({
      id: 'x',
      type: 'info',
      message: 'Saved',
      position: 'bottom',
      timeout: 5000,
    });
  });

  it('keeps an ongoing notification until it is replaced or dismissed', () => {
    expect(normalizeNotification({ message: 'Importing', type: 'ongoing' }, 'x').timeout).toBe(0);
  });

  it('dismisses timeout + 1000 ms after showing, and never when sticky', () => {
    expect(dismissDelay(normalizeNotification({ message: 'a' }, 'a'))).toBe(6000);
    expect(dismissDelay(normalizeNotification({ message: 'a', timeout: 250 }, 'a'))).toBe(1250);
    expect(dismissDelay(normalizeNotification({ message: 'a', timeout: 0 }, 'a'))).toBeUndefined();
  });

  it('refuses a negative timeout with a message naming the rule and the value', () => {
    expect(validateNotification({ message: 'a', timeout: -1 })).toBe(
      'Notification timeout must be a non-negative number of milliseconds (0 = sticky); got -1.',
    );
    expect(validateNotification({ message: 'a', timeout: Number.NaN })).toMatch(/non-negative/);
  });

  it('refuses unknown types and positions and an empty message, naming the allowed values', () => {
    expect(validateNotification({ message: 'a', type: 'fatal' as never })).toMatch(/positive, negative, warning, info, ongoing/);
    expect(validateNotification({ message: 'a', position: 'middle' as never })).toMatch(/top-left, top-right/);
    expect(validateNotification({ message: '  ' })).toBe('A notification needs a message.');
  });

  it('accepts every listed position and type, and timeout 0', () => {
    for (const position of ['top-left', 'top-right', 'bottom-left', 'bottom-right', 'top', 'bottom', 'left', 'right', 'center'] as const) {
      expect(validateNotification({ message: 'a', position })).toBeNull();
    }
    for (const type of ['positive', 'negative', 'warning', 'info', 'ongoing'] as const) {
      expect(validateNotification({ message: 'a', type })).toBeNull();
    }
    expect(validateNotification({ message: 'a', timeout: 0 })).toBeNull();
  });
});

describe('notificationsMachine transitions (pure)', () => {
  it('starts idle with nothing to show', () => {
    const [snapshot] = initialTransition(notificationsMachine);
    expect(snapshot.value).toBe('idle');
    expect(snapshot.context.notifications).toEqual([]);
  });

  it('idle → showing on a valid show, scheduling its dismissal timeout + 1000 ms later', () => {
    const [idle] = initialTransition(notificationsMachine);
    const [next, actions] = transition(notificationsMachine, idle, show({ message: 'Saved', type: 'positive' }));
    expect(next.value).toBe('showing');
    expect(next.context.notifications).toEqual([
      { id: 'notification-1', type: 'positive', message: 'Saved', position: 'bottom', timeout: 5000 },
    ]);
    const raise = actions.find((a) => a.type === 'xstate.raise');
    expect(raise?.params).toMatchObject({ id: 'notification-1', delay: 6000, event: { type: 'notification.expire', id: 'notification-1' } });
  });

  it('schedules nothing for a sticky notification', () => {
    const [idle] = initialTransition(notificationsMachine);
    const [, actions] = transition(notificationsMachine, idle, show({ message: 'Stay', timeout: 0 }));
    expect(actions.some((a) => a.type === 'xstate.raise')).toBe(false);
  });

  it('idle stays idle on an invalid show, recording why and emitting notification.rejected', () => {
    const [idle] = initialTransition(notificationsMachine);
    const [next, actions] = transition(notificationsMachine, idle, show({ message: 'Bad', timeout: -5 }));
    expect(next.value).toBe('idle');
    expect(next.context.notifications).toEqual([]);
    expect(next.context.rejection).toMatch(/non-negative/);
    // `transition` reports emit actions although its static action type does not list them.
    expect(actions.find((a) => (a.type as string) === 'xstate.emit')?.params).toMatchObject({ event: { type: 'notification.rejected' } });
  });

  it('ignores dismiss and expire while idle', () => {
    const [idle] = initialTransition(notificationsMachine);
    expect(transition(notificationsMachine, idle, { type: 'notification.dismiss', id: 'x' })[0].value).toBe('idle');
    expect(transition(notificationsMachine, idle, { type: 'notification.expire', id: 'x' })[0].value).toBe('idle');
  });
});

describe('notificationsMachine with a simulated clock', () => {
  it('showing → idle when the last notification times out after timeout + 1000 ms', () => {
    const clock = new SimulatedClock();
    const { actor, ids } = start(clock);
    actor.send(show({ message: 'Saved' }));
    clock.increment(5999);
    expect(ids()).toEqual(['notification-1']);
    clock.increment(1);
    expect(ids()).toEqual([]);
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('showing stays showing while other notifications remain', () => {
    const clock = new SimulatedClock();
    const { actor, ids } = start(clock);
    actor.send(show({ message: 'short', timeout: 1000 }));
    actor.send(show({ message: 'long', timeout: 9000 }));
    clock.increment(2000);
    expect(ids()).toEqual(['notification-2']);
    expect(actor.getSnapshot().value).toBe('showing');
  });

  it('a sticky notification stays until dismissed', () => {
    const clock = new SimulatedClock();
    const { actor, ids } = start(clock);
    actor.send(show({ message: 'stay', timeout: 0 }));
    clock.increment(3_600_000);
    expect(ids()).toEqual(['notification-1']);
    actor.send({ type: 'notification.dismiss', id: 'notification-1' });
    expect(ids()).toEqual([]);
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('dismissing early cancels the timer, so a new notification with the same id is not cut short', () => {
    const clock = new SimulatedClock();
    const { actor, ids } = start(clock);
    actor.send(show({ id: 'save', message: 'first', timeout: 1000 }));
    clock.increment(1500);
    actor.send({ type: 'notification.dismiss', id: 'save' });
    actor.send(show({ id: 'save', message: 'second', timeout: 1000 }));
    clock.increment(600); // the first timer would have fired at 2000 ms
    expect(ids()).toEqual(['save']);
    clock.increment(1400);
    expect(ids()).toEqual([]);
  });

  it('showing with an existing id replaces it and restarts its time', () => {
    const clock = new SimulatedClock();
    const { actor } = start(clock);
    actor.send(show({ id: 'import', type: 'ongoing', message: 'Importing profiles…' }));
    clock.increment(10_000);
    actor.send(show({ id: 'import', type: 'positive', message: 'Imported 12 profiles', timeout: 2000 }));
    const [only] = actor.getSnapshot().context.notifications;
    expect(actor.getSnapshot().context.notifications).toHaveLength(1);
    expect(only).toMatchObject({ id: 'import', type: 'positive', message: 'Imported 12 profiles' });
    clock.increment(3000);
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('a rejected request is not shown, and the next accepted one clears the rejection', () => {
    const { actor, rejected, ids } = start(new SimulatedClock());
    actor.send(show({ message: 'bad', timeout: -1 }));
    expect(ids()).toEqual([]);
    expect(rejected).toEqual([{ type: 'notification.rejected', error: expect.stringMatching(/got -1/) }]);
    actor.send(show({ message: 'good' }));
    expect(actor.getSnapshot().context.rejection).toBeNull();
  });

  it('an invalid show while showing leaves the current notifications alone', () => {
    const { actor, ids } = start(new SimulatedClock());
    actor.send(show({ message: 'good' }));
    actor.send(show({ message: 'bad', position: 'nowhere' as never }));
    expect(ids()).toEqual(['notification-1']);
    expect(actor.getSnapshot().value).toBe('showing');
  });

  it('expire of an unknown id changes nothing', () => {
    const { actor, ids } = start(new SimulatedClock());
    actor.send(show({ message: 'good' }));
    actor.send({ type: 'notification.expire', id: 'other' });
    expect(ids()).toEqual(['notification-1']);
  });
});

describe('notificationsMachine with fake timers', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('uses the real scheduler: a 5000 ms notification disappears at 6000 ms', () => {
    const { actor, ids } = start();
    actor.send(show({ message: 'Saved' }));
    vi.advanceTimersByTime(5999);
    expect(ids()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(ids()).toHaveLength(0);
    actor.stop();
  });
});
