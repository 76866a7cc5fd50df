import { describe, expect, it } from 'vitest';
import { createActor, initialTransition, transition, waitFor, type SnapshotFrom, type StateValue } from 'xstate';
import {
  availableActions,
  decisionConsequence,
  hitReview,
  hitReviewMachine,
  transitionRequest,
  type HitDecision,
  type HitReviewContext,
  type HitReviewEvent,
  type HitReviewPermissions,
  type HitStatus,
  type HitTransitionRequest,
  type ReviewedHit,
} from '../../../machines/hitReview.machine';
import { GENERIC_FAILURE } from '../../../machines/recordEditor.machine';

const HIT_ID = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';

const hitIn = (status: HitStatus, version = 2): ReviewedHit => ({ id: HIT_ID, version, status });
const pending = hitIn('pending');
const everything: HitReviewPermissions = { publish: true, reset: true };
const conflict = { status: 409, serverMessage: 'This hit was decided by someone else since you opened it.' };

type Snapshot = SnapshotFrom<typeof hitReviewMachine>;

const publish = (comments: string, notify: boolean): HitReviewEvent => ({ type: 'decision.start', decision: { action: 'publish', comments, notify } });
const reject = (reason: string): HitReviewEvent => ({ type: 'decision.start', decision: { action: 'reject', reason } });
const reset = (comments: string): HitReviewEvent => ({ type: 'decision.start', decision: { action: 'reset', comments } });

/** A snapshot in `value` with `context`, without running any actor. */
function at(value: StateValue, context: Partial<HitReviewContext> = {}): Snapshot {
  return hitReviewMachine.resolveState({ value, context: { record: pending, allowed: everything, decision: null, lastDone: null, error: null, ...context } });
}

const NEXT: Record<HitTransitionRequest['action'], HitStatus> = { publish: 'published', reject: 'rejected', reset: 'pending' };

/** Runs the machine with fake calls answering from the given functions, recording what they were asked. */
function start(hit: ReviewedHit, calls: { transition?: (r: HitTransitionRequest) => Promise<ReviewedHit>; reload?: () => Promise<ReviewedHit> } = {}) {
  const sent: HitTransitionRequest[] = [];
  const reloads: string[] = [];
  const logic = hitReview.withCalls({
    transition: async (request) => {
      sent.push(request);
      return calls.transition ? calls.transition(request) : hitIn(NEXT[request.action], request.version + 1);
    },
    reload: async (id) => {
      reloads.push(id);
      return calls.reload ? calls.reload() : hitIn('published', 7);
    },
  });
  const actor = createActor(logic, { input: { record: hit, allowed: everything } }).start();
  return { actor, sent, reloads, snapshot: () => actor.getSnapshot() };
}

describe('availableActions', () => {
  it('offers publish and reject on a pending hit to a publisher, reset on a decided one to a resetter', () => {
    const cases: [HitStatus, HitReviewPermissions, string[]][] = [
      ['pending', everything, ['publish', 'reject']],
      ['pending', { publish: true, reset: false }, ['publish', 'reject']],
      ['pending', { publish: false, reset: true }, []],
      ['published', everything, ['reset']],
      ['rejected', everything, ['reset']],
      ['published', { publish: true, reset: false }, []],
      ['rejected', { publish: true, reset: false }, []],
      ['published', { publish: false, reset: true }, ['reset']],
      // Four-eyes review: the hit rests on the user's own profile.
      ['pending', { publish: true, reset: true, ownProfile: true }, ['reject']],
      ['published', { publish: true, reset: true, ownProfile: true }, ['reset']],
    ];
    for (const [status, allowed, actions] of cases) {
      expect(availableActions(hitIn(status), allowed), `${status} ${JSON.stringify(allowed)}`).toEqual(actions);
    }
  });
});

describe('transitionRequest', () => {
  it('sends each decision with the version read and the body its route takes, text trimmed', () => {
    expect(transitionRequest(pending, { action: 'publish', comments: ' Confirmed by second analyst ', notify: true })).toEqual({
      hitId: HIT_ID,
      version: 2,
      action: 'publish',
      body: { comments: 'Confirmed by second analyst', notify: true, version: 2 },
    });
    expect(transitionRequest(pending, { action: 'reject', reason: '  Relatives of the same family  ' })).toEqual({
      hitId: HIT_ID,
      version: 2,
      action: 'reject',
      body: { reason: 'Relatives of the same family', version: 2 },
    });
    expect(transitionRequest(hitIn('published', 5), { action: 'reset', comments: 'Published in error' })).toEqual({
      hitId: HIT_ID,
      version: 5,
      action: 'reset',
      body: { comments: 'Published in error', version: 5 },
    });
  });
});

describe('decisionConsequence', () => {
  it('says whether publishing e-mails anyone', () => {
    expect(decisionConsequence({ action: 'publish', comments: '', notify: true }, 'pending')).toMatch(/assigned users who receive notifications are e-mailed/);
    expect(decisionConsequence({ action: 'publish', comments: '', notify: false }, 'pending')).toMatch(/Nobody is e-mailed/);
    expect(decisionConsequence({ action: 'reset', comments: '' }, 'rejected')).toBe('The hit returns to pending and waits for review again.');
  });

  it('says that resetting a published hit retracts it and e-mails the reason', () => {
    expect(decisionConsequence({ action: 'reset', comments: 'Wrong reference' }, 'published')).toBe(
      'The hit returns to pending and waits for review again. It is retracted: whoever its publication notified is e-mailed your reason.',
    );
  });
});

// machines/reviewDecision's chart, every transition, through the hit's rules (profile-review.test.ts checks the profile's rules on it).
describe('hitReview machine: pure transitions', () => {
  it('starts idle with the hit and permissions, no decision and no notice', () => {
    const [snapshot] = initialTransition(hitReviewMachine, { record: pending, allowed: everything });
    expect(snapshot.value).toBe('idle');
    expect(snapshot.context).toEqual({ record: pending, allowed: everything, decision: null, lastDone: null, error: null });
  });

  it('asks for confirmation of every allowed decision, holding what the user typed and chose', () => {
    const cases: [HitStatus, HitReviewEvent, HitDecision][] = [
      ['pending', publish('Checked', true), { action: 'publish', comments: 'Checked', notify: true }],
      ['pending', publish('', false), { action: 'publish', comments: '', notify: false }],
      ['pending', reject('Same person, two samples'), { action: 'reject', reason: 'Same person, two samples' }],
      ['published', reset('Published in error'), { action: 'reset', comments: 'Published in error' }],
      ['rejected', reset(''), { action: 'reset', comments: '' }],
    ];
    for (const [status, event, decision] of cases) {
      const [snapshot] = transition(hitReviewMachine, at('idle', { record: hitIn(status) }), event);
      expect(snapshot.value, `${JSON.stringify(event)} on ${status}`).toBe('confirming');
      expect(snapshot.context.decision).toEqual(decision);
    }
  });

  it('refuses decisions the status or the permissions do not allow', () => {
    const refused: [HitStatus, HitReviewPermissions, HitReviewEvent][] = [
      ['published', everything, publish('', false)],
      ['rejected', everything, publish('', true)],
      ['published', everything, reject('Again')],
      ['rejected', everything, reject('Again')],
      ['pending', everything, reset('')],
      ['pending', { publish: false, reset: true }, publish('', false)],
      ['pending', { publish: false, reset: true }, reject('Relatives')],
      ['published', { publish: true, reset: false }, reset('')],
      ['rejected', { publish: true, reset: false }, reset('')],
    ];
    for (const [status, allowed, event] of refused) {
      const snapshot = at('idle', { record: hitIn(status), allowed });
      expect(snapshot.can(event), `${JSON.stringify(event)} on ${status} with ${JSON.stringify(allowed)}`).toBe(false);
      expect(transition(hitReviewMachine, snapshot, event)[0].value).toBe('idle');
    }
  });

  it('refuses a rejection without a reason, blanks included', () => {
    for (const reason of ['', '   ', '\n\t']) expect(at('idle').can(reject(reason)), JSON.stringify(reason)).toBe(false);
  });

  it('refuses to reset a published hit without a reason (a retraction); a rejected one resets without comments', () => {
    for (const reason of ['', '   ', '\n\t']) expect(at('idle', { record: hitIn('published') }).can(reset(reason)), JSON.stringify(reason)).toBe(false);
    expect(at('idle', { record: hitIn('published') }).can(reset('Wrong reference'))).toBe(true);
    expect(at('idle', { record: hitIn('rejected') }).can(reset(''))).toBe(true);
  });

  it('refuses to let the user publish a hit resting on their own profile (four-eyes review), but lets them reject it', () => {
    const own = at('idle', { allowed: { ...everything, ownProfile: true } });
    expect(own.can(publish('Checked', true))).toBe(false);
    expect(own.can(reject('Relatives'))).toBe(true);
  });

  it('forgets the previous notice and error when a new decision starts', () => {
    const [snapshot] = transition(hitReviewMachine, at('idle', { record: hitIn('published'), lastDone: 'Published' }), reset('Published in error'));
    expect(snapshot.context).toMatchObject({ lastDone: null, error: null });
  });

  it('sends a confirmed decision, and drops a cancelled one', () => {
    const confirming = at('confirming', { decision: { action: 'publish', comments: 'Checked', notify: true } });
    const [submitting] = transition(hitReviewMachine, confirming, { type: 'decision.confirm' });
    expect(submitting.value).toBe('submitting');
    expect(submitting.hasTag('busy')).toBe(true);
    const [cancelled] = transition(hitReviewMachine, confirming, { type: 'decision.cancel' });
    expect(cancelled.value).toBe('idle');
    expect(cancelled.context.decision).toBeNull();
    expect(cancelled.hasTag('busy')).toBe(false);
  });

  it('after a failure, sends the same decision again or drops it', () => {
    const failed = at('failed', { decision: { action: 'reject', reason: 'Relatives' }, error: { status: 500, message: GENERIC_FAILURE } });
    const [retry] = transition(hitReviewMachine, failed, { type: 'decision.retry' });
    expect(retry.value).toBe('submitting');
    expect(retry.context).toMatchObject({ decision: { action: 'reject', reason: 'Relatives' }, error: null });
    const [dismissed] = transition(hitReviewMachine, failed, { type: 'failure.dismiss' });
    expect(dismissed.value).toBe('idle');
    expect(dismissed.context).toMatchObject({ decision: null, error: null });
    expect(failed.can({ type: 'record.reload' })).toBe(false);
  });

  it('after a conflict, offers only to reload', () => {
    const stale = at('conflict', { decision: { action: 'publish', comments: '', notify: false }, error: { status: 409, message: conflict.serverMessage } });
    const refused: HitReviewEvent[] = [
      { type: 'decision.retry' },
      { type: 'failure.dismiss' },
      { type: 'decision.confirm' },
      { type: 'decision.cancel' },
      publish('', false),
      reject('Relatives'),
    ];
    for (const event of refused) expect(stale.can(event), JSON.stringify(event)).toBe(false);
    const [reloading] = transition(hitReviewMachine, stale, { type: 'record.reload' });
    expect(reloading.value).toBe('reloading');
    expect(reloading.hasTag('busy')).toBe(true);
  });

  it('takes no new decision while one is being confirmed, sent or reloaded', () => {
    for (const value of ['confirming', 'submitting', 'reloading'] as const) {
      expect(at(value, { decision: { action: 'publish', comments: '', notify: false } }).can(reject('x')), value).toBe(false);
    }
    expect(at('submitting', { decision: { action: 'publish', comments: '', notify: false } }).can({ type: 'decision.cancel' })).toBe(false);
    expect(at('idle').can({ type: 'record.reload' })).toBe(false);
  });
});

describe('hitReview machine: calls and their outcomes', () => {
  it('publishes a pending hit with comments and notify, then offers reset with the new version', async () => {
    const { actor, sent, snapshot } = start(pending);
    actor.send(publish('Confirmed', true));
    actor.send({ type: 'decision.confirm' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(sent).toEqual([{ hitId: HIT_ID, version: 2, action: 'publish', body: { comments: 'Confirmed', notify: true, version: 2 } }]);
    expect(snapshot().context).toMatchObject({ record: { status: 'published', version: 3 }, decision: null, lastDone: 'Published', error: null });
    expect(availableActions(snapshot().context.record, everything)).toEqual(['reset']);
  });

  it('rejects with the reason, and resets a decided hit back to pending', async () => {
    const rejecting = start(pending);
    rejecting.actor.send(reject('Relatives of one family'));
    rejecting.actor.send({ type: 'decision.confirm' });
    await waitFor(rejecting.actor, (s) => s.matches('idle'));
    expect(rejecting.sent[0]).toMatchObject({ action: 'reject', body: { reason: 'Relatives of one family' } });
    expect(rejecting.snapshot().context).toMatchObject({ record: { status: 'rejected' }, lastDone: 'Rejected' });

    rejecting.actor.send(reset('Reviewed again'));
    rejecting.actor.send({ type: 'decision.confirm' });
    await waitFor(rejecting.actor, (s) => s.matches('idle') && s.context.lastDone !== null);
    expect(rejecting.sent[1]).toEqual({ hitId: HIT_ID, version: 3, action: 'reset', body: { comments: 'Reviewed again', version: 3 } });
    expect(rejecting.snapshot().context).toMatchObject({ record: { status: 'pending', version: 4 }, lastDone: 'Reset to pending' });
  });

  it('sends nothing for a cancelled decision', async () => {
    const { actor, sent } = start(pending);
    actor.send(publish('', true));
    actor.send({ type: 'decision.cancel' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sent).toEqual([]);
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('on 409 (another reviewer decided first), shows the conflict and reloads the hit to decide again', async () => {
    const { actor, reloads, snapshot } = start(pending, { transition: () => Promise.reject(conflict) });
    actor.send(reject('Relatives'));
    actor.send({ type: 'decision.confirm' });
    await waitFor(actor, (s) => s.matches('conflict'));
    expect(snapshot().context.error).toEqual({ status: 409, message: conflict.serverMessage });
    actor.send({ type: 'record.reload' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(reloads).toEqual([HIT_ID]);
    expect(snapshot().context).toMatchObject({ record: { status: 'published', version: 7 }, decision: null, error: null, lastDone: null });
    expect(availableActions(snapshot().context.record, everything)).toEqual(['reset']);
  });

  it('keeps offering only Reload, with the new message, when the reload fails', async () => {
    let attempt = 0;
    const { actor, snapshot } = start(pending, {
      transition: () => Promise.reject(conflict),
      reload: async () => (++attempt === 1 ? Promise.reject(new TypeError('fetch failed')) : hitIn('rejected', 5)),
    });
    actor.send(publish('', false));
    actor.send({ type: 'decision.confirm' });
    await waitFor(actor, (s) => s.matches('conflict'));
    actor.send({ type: 'record.reload' });
    await waitFor(actor, (s) => s.matches('conflict') && s.context.error?.status === 0);
    expect(snapshot().context.error).toEqual({ status: 0, message: GENERIC_FAILURE });
    expect(snapshot().can({ type: 'failure.dismiss' })).toBe(false);
    actor.send({ type: 'record.reload' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(snapshot().context.record).toEqual(hitIn('rejected', 5));
  });

  it('fails with the server message on another error, and sends the same decision on retry', async () => {
    let attempt = 0;
    const { actor, sent, snapshot } = start(hitIn('published'), {
      transition: async (r) => (++attempt === 1 ? Promise.reject({ status: 403, serverMessage: 'You do not have permission to perform this action.' }) : hitIn('pending', r.version + 1)),
    });
    actor.send(reset('Published in error'));
    actor.send({ type: 'decision.confirm' });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(snapshot().context.error).toEqual({ status: 403, message: 'You do not have permission to perform this action.' });
    actor.send({ type: 'decision.retry' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual(sent[0]);
    expect(snapshot().context).toMatchObject({ lastDone: 'Reset to pending', record: { status: 'pending', version: 3 } });
  });

  it('dismissing a failure leaves the hit as it was, ready for another decision', async () => {
    const { actor, snapshot } = start(pending, { transition: () => Promise.reject({ status: 500 }) });
    actor.send(publish('x', true));
    actor.send({ type: 'decision.confirm' });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(snapshot().context.error).toEqual({ status: 500, message: GENERIC_FAILURE });
    actor.send({ type: 'failure.dismiss' });
    expect(snapshot().value).toBe('idle');
    expect(snapshot().context).toMatchObject({ record: pending, decision: null, error: null });
    expect(snapshot().can(reject('Relatives'))).toBe(true);
  });

  it('refuses to run without real calls (the actors must be provided)', async () => {
    const actor = createActor(hitReviewMachine, { input: { record: pending, allowed: everything } }).start();
    actor.send(publish('', false));
    actor.send({ type: 'decision.confirm' });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toEqual({ status: 0, message: GENERIC_FAILURE });
  });
});
