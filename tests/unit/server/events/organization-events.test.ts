import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OrganizationChange } from '../../../../core/schemas/organization-events';
import { createOrganizationEvents, throttled } from '../../../../server/events/organization-events';

const heard = () => {
  const calls: [string, OrganizationChange][] = [];
  return { calls, listener: (organizationId: string, change: OrganizationChange) => void calls.push([organizationId, change]) };
};

describe('the organization event hub', () => {
  it('tells each subscriber only the changes of the organizations it subscribed to', () => {
    const events = createOrganizationEvents();
    const a = heard();
    const b = heard();
    events.subscribe(['org-a'], a.listener);
    events.subscribe(['org-b', 'org-c'], b.listener);
    events.publish('org-a', 'hits');
    events.publish('org-c', 'searches');
    expect(a.calls).toEqual([['org-a', 'hits']]);
    expect(b.calls).toEqual([['org-c', 'searches']]);
  });

  it('tells a subscriber of every organization (scope All at `all`) everything', () => {
    const events = createOrganizationEvents();
    const all = heard();
    events.subscribe(null, all.listener);
    events.publish('org-a', 'hits');
    events.publish('org-b', 'searches');
    expect(all.calls).toEqual([
      ['org-a', 'hits'],
      ['org-b', 'searches'],
    ]);
  });

  it('stops telling a subscriber once it unsubscribed', () => {
    const events = createOrganizationEvents();
    const a = heard();
    const stop = events.subscribe(['org-a'], a.listener);
    stop();
    events.publish('org-a', 'hits');
    expect(a.calls).toEqual([]);
  });

  it('still tells the others when one listener throws, and reports the error', () => {
    const errors: unknown[] = [];
    const events = createOrganizationEvents((err) => errors.push(err));
    const after = heard();
    events.subscribe(['org-a'], () => {
      throw new Error('broken stream');
    });
    events.subscribe(['org-a'], after.listener);
    events.publish('org-a', 'hits');
    expect(after.calls).toEqual([['org-a', 'hits']]);
    expect(errors).toHaveLength(1);
  });
});

describe('throttled publishing (search progress at most twice a second)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('publishes the first change at once and the changes within the interval as one at its end', () => {
    const published: [string, OrganizationChange][] = [];
    const tell = throttled({ publish: (o, c) => void published.push([o, c]) }, 500);
    tell.publish('org-a', 'searches');
    expect(published).toEqual([['org-a', 'searches']]);
    for (let i = 0; i < 20; i++) tell.publish('org-a', 'searches');
    expect(published).toHaveLength(1);
    vi.advanceTimersByTime(500);
    expect(published).toHaveLength(2);
    // Nothing more happened: the next interval ends quietly and the one after starts afresh.
    vi.advanceTimersByTime(500);
    expect(published).toHaveLength(2);
    tell.publish('org-a', 'searches');
    expect(published).toHaveLength(3);
  });

  it('sends no more than one change per interval while changes keep coming', () => {
    const published: number[] = [];
    const tell = throttled({ publish: () => void published.push(Date.now()) }, 500);
    // A change every 50 ms for 3 s: 60 changes, at most 3 s / 0.5 s + 1 events.
    for (let t = 0; t < 3000; t += 50) {
      tell.publish('org-a', 'searches');
      vi.advanceTimersByTime(50);
    }
    vi.advanceTimersByTime(1000);
    expect(published.length).toBeLessThanOrEqual(7);
    expect(published.length).toBeGreaterThanOrEqual(6);
    for (let i = 1; i < published.length; i++) expect(published[i]! - published[i - 1]!).toBeGreaterThanOrEqual(500);
  });

  it('throttles each organization and each kind of change on its own', () => {
    const published: [string, OrganizationChange][] = [];
    const tell = throttled({ publish: (o, c) => void published.push([o, c]) }, 500);
    tell.publish('org-a', 'searches');
    tell.publish('org-b', 'searches');
    tell.publish('org-a', 'hits');
    expect(published).toEqual([
      ['org-a', 'searches'],
      ['org-b', 'searches'],
      ['org-a', 'hits'],
    ]);
  });

  it('drops what waits when closed (server shutdown)', () => {
    const published: string[] = [];
    const tell = throttled({ publish: (o) => void published.push(o) }, 500);
    tell.publish('org-a', 'searches');
    tell.publish('org-a', 'searches');
    tell.close();
    vi.advanceTimersByTime(1000);
    expect(published).toEqual(['org-a']);
  });
});
