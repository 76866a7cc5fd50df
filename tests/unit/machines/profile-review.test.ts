import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, initialTransition, transition, waitFor, type SnapshotFrom, type StateValue } from 'xstate';
import type { ProfileStatus } from '../../../core/schemas/profiles';
import {
  availableActions,
  profileReviewMachine,
  transitionRequest,
  type ProfileReviewContext,
  type ProfileReviewEvent,
  type ReviewedProfile,
  type ReviewPermissions,
  type TransitionRequest,
} from '../../../machines/profileReview.machine';
import { GENERIC_FAILURE } from '../../../machines/recordEditor.machine';

const PROFILE_ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const D3S1358 = '0d6f8b4a-1c2e-4f3a-8b5c-7d9e0f1a2b3c';
const TH01 = '1e7a9c5b-2d3f-4a4b-9c6d-8e0f1a2b3c4d';

const profileIn = (status: ProfileStatus, version = 3): ReviewedProfile => ({
  id: PROFILE_ID,
  version,
  status,
  markerValues: [
    { markerId: D3S1358, marker: 'D3S1358', alleles: ['16', '16'] },
    { markerId: TH01, marker: 'TH01', alleles: ['7', '7'] },
  ],
});
const pending = profileIn('pending');
const everything: ReviewPermissions = { review: true, reset: true };
const conflict = { status: 409, serverMessage: 'This record was changed by someone else since you opened it.' };

type Snapshot = SnapshotFrom<typeof profileReviewMachine>;

/** A snapshot in `value` with `context`, without running any actor. */
function at(value: StateValue, context: Partial<ProfileReviewContext> = {}): Snapshot {
  return profileReviewMachine.resolveState({ value, context: { profile: pending, allowed: everything, decision: null, lastDone: null, error: null, ...context } });
}

/** Runs the machine with fake calls answering from the given functions, recording what they were asked. */
function start(
  profile: ReviewedProfile,
  calls: { transition?: (r: TransitionRequest) => Promise<ReviewedProfile>; reload?: () => Promise<ReviewedProfile> } = {},
) {
  const sent: TransitionRequest[] = [];
  const reloads: { profileId: string }[] = [];
  const logic = profileReviewMachine.provide({
    actors: {
      transition: fromPromise(async ({ input }: { input: TransitionRequest }) => {
        sent.push(input);
        if (calls.transition) return calls.transition(input);
        const status: ProfileStatus = input.action === 'approve' ? 'approved' : input.action === 'reject' ? 'rejected' : 'pending';
        return profileIn(status, input.version + 1);
      }),
      reload: fromPromise(async ({ input }: { input: { profileId: string } }) => {
        reloads.push(input);
        return calls.reload ? calls.reload() : profileIn('approved', 9);
      }),
    },
  });
  const actor = createActor(logic, { input: { profile, allowed: everything } }).start();
  return { actor, sent, reloads, snapshot: () => actor.getSnapshot() };
}

describe('availableActions', () => {
  it('offers approve and reject on a pending profile to a reviewer, reset and reset-delete on a decided one to a resetter', () => {
    const cases: [ProfileStatus, ReviewPermissions, string[]][] = [
      ['pending', everything, ['approve', 'reject']],
      ['pending', { review: false, reset: true }, []],
      ['approved', everything, ['reset', 'reset-delete']],
      ['rejected', everything, ['reset', 'reset-delete']],
      ['approved', { review: true, reset: false }, []],
      ['rejected', { review: true, reset: false }, []],
    ];
    for (const [status, allowed, actions] of cases) {
      expect(availableActions({ profile: profileIn(status), allowed }), `${status} ${JSON.stringify(allowed)}`).toEqual(actions);
    }
  });

  it('does not offer approval of a profile without marker values (the server refuses it)', () => {
    expect(availableActions({ profile: { ...pending, markerValues: [] }, allowed: everything })).toEqual(['reject']);
  });
});

describe('transitionRequest', () => {
  it('sends each decision with the version read and the body its route takes', () => {
    expect(transitionRequest(pending, { action: 'approve', comments: 'Peaks checked' })).toEqual({
      profileId: PROFILE_ID,
      version: 3,
      action: 'approve',
      body: {
        markerValues: [
          { markerId: D3S1358, alleles: ['16', '16'] },
          { markerId: TH01, alleles: ['7', '7'] },
        ],
        comments: 'Peaks checked',
        version: 3,
      },
    });
    expect(transitionRequest(pending, { action: 'reject', reason: '  Contaminated  ' })).toEqual({
      profileId: PROFILE_ID,
      version: 3,
      action: 'reject',
      body: { reason: 'Contaminated', version: 3 },
    });
    const approved = profileIn('approved', 4);
    expect(transitionRequest(approved, { action: 'reset', comments: 'Re-typed' })).toEqual({
      profileId: PROFILE_ID,
      version: 4,
      action: 'reset',
      body: { comments: 'Re-typed', version: 4 },
    });
    expect(transitionRequest(approved, { action: 'reset-delete' })).toEqual({ profileId: PROFILE_ID, version: 4, action: 'reset-delete', body: null });
  });
});

describe('profileReview machine: pure transitions', () => {
  it('starts idle with the profile and permissions, no decision and no notice', () => {
    const [snapshot] = initialTransition(profileReviewMachine, { profile: pending, allowed: everything });
    expect(snapshot.value).toBe('idle');
    expect(snapshot.context).toEqual({ profile: pending, allowed: everything, decision: null, lastDone: null, error: null });
  });

  it('asks for confirmation of every allowed decision, holding what the user typed', () => {
    const cases: [ProfileStatus, ProfileReviewEvent, ProfileReviewContext['decision']][] = [
      ['pending', { type: 'profile.approve', comments: 'Peaks checked' }, { action: 'approve', comments: 'Peaks checked' }],
      ['pending', { type: 'profile.reject', reason: 'Contaminated' }, { action: 'reject', reason: 'Contaminated' }],
      ['approved', { type: 'profile.reset', comments: 'Re-typed' }, { action: 'reset', comments: 'Re-typed' }],
      ['rejected', { type: 'profile.resetDelete' }, { action: 'reset-delete' }],
    ];
    for (const [status, event, decision] of cases) {
      const [snapshot] = transition(profileReviewMachine, at('idle', { profile: profileIn(status) }), event);
      expect(snapshot.value, event.type).toBe('confirming');
      expect(snapshot.context.decision).toEqual(decision);
    }
  });

  it('refuses decisions the status or the permissions do not allow', () => {
    const refused: [ProfileStatus, ReviewPermissions, ProfileReviewEvent][] = [
      ['approved', everything, { type: 'profile.approve', comments: '' }],
      ['rejected', everything, { type: 'profile.reject', reason: 'Again' }],
      ['pending', { review: false, reset: true }, { type: 'profile.approve', comments: '' }],
      ['pending', { review: false, reset: true }, { type: 'profile.reject', reason: 'Contaminated' }],
      ['pending', everything, { type: 'profile.reset', comments: '' }],
      ['pending', everything, { type: 'profile.resetDelete' }],
      ['approved', { review: true, reset: false }, { type: 'profile.reset', comments: '' }],
      ['rejected', { review: true, reset: false }, { type: 'profile.resetDelete' }],
    ];
    for (const [status, allowed, event] of refused) {
      const snapshot = at('idle', { profile: profileIn(status), allowed });
      expect(snapshot.can(event), `${event.type} on ${status} with ${JSON.stringify(allowed)}`).toBe(false);
      expect(transition(profileReviewMachine, snapshot, event)[0].value).toBe('idle');
    }
  });

  it('refuses a rejection without a reason, blanks included', () => {
    for (const reason of ['', '   ']) expect(at('idle').can({ type: 'profile.reject', reason })).toBe(false);
  });

  it('refuses to approve a profile without marker values', () => {
    expect(at('idle', { profile: { ...pending, markerValues: [] } }).can({ type: 'profile.approve', comments: '' })).toBe(false);
  });

  it('forgets the previous notice when a new decision starts', () => {
    const [snapshot] = transition(profileReviewMachine, at('idle', { profile: profileIn('approved'), lastDone: 'Approved' }), { type: 'profile.resetDelete' });
    expect(snapshot.context.lastDone).toBeNull();
  });

  it('sends a confirmed decision, and drops a cancelled one', () => {
    const confirming = at('confirming', { decision: { action: 'reject', reason: 'Contaminated' } });
    const [submitting] = transition(profileReviewMachine, confirming, { type: 'decision.confirm' });
    expect(submitting.value).toBe('submitting');
    expect(submitting.hasTag('busy')).toBe(true);
    const [cancelled] = transition(profileReviewMachine, confirming, { type: 'decision.cancel' });
    expect(cancelled.value).toBe('idle');
    expect(cancelled.context.decision).toBeNull();
  });

  it('after a failure, sends the same decision again or drops it', () => {
    const failed = at('failed', { decision: { action: 'approve', comments: '' }, error: { status: 500, message: GENERIC_FAILURE } });
    const [retry] = transition(profileReviewMachine, failed, { type: 'decision.retry' });
    expect(retry.value).toBe('submitting');
    expect(retry.context).toMatchObject({ decision: { action: 'approve' }, error: null });
    const [dismissed] = transition(profileReviewMachine, failed, { type: 'failure.dismiss' });
    expect(dismissed.value).toBe('idle');
    expect(dismissed.context).toMatchObject({ decision: null, error: null });
  });

  it('after a conflict, offers only to reload', () => {
    const stale = at('conflict', { decision: { action: 'approve', comments: '' }, error: { status: 409, message: conflict.serverMessage } });
    expect(stale.can({ type: 'decision.retry' })).toBe(false);
    expect(stale.can({ type: 'failure.dismiss' })).toBe(false);
    expect(stale.can({ type: 'profile.approve', comments: '' })).toBe(false);
    const [reloading] = transition(profileReviewMachine, stale, { type: 'profile.reload' });
    expect(reloading.value).toBe('reloading');
    expect(reloading.hasTag('busy')).toBe(true);
  });

  it('takes no new decision while one is being confirmed or sent', () => {
    for (const value of ['confirming', 'submitting', 'reloading'] as const) {
      expect(at(value, { decision: { action: 'approve', comments: '' } }).can({ type: 'profile.reject', reason: 'x' }), value).toBe(false);
    }
    expect(at('submitting', { decision: { action: 'approve', comments: '' } }).can({ type: 'decision.cancel' })).toBe(false);
  });
});

describe('profileReview machine: calls and their outcomes', () => {
  it('approves a pending profile, then offers reset with the new version', async () => {
    const { actor, sent, snapshot } = start(pending);
    actor.send({ type: 'profile.approve', comments: 'Peaks checked' });
    actor.send({ type: 'decision.confirm' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(sent).toEqual([transitionRequest(pending, { action: 'approve', comments: 'Peaks checked' })]);
    expect(snapshot().context).toMatchObject({ profile: { status: 'approved', version: 4 }, decision: null, lastDone: 'Approved', error: null });
    expect(availableActions(snapshot().context)).toEqual(['reset', 'reset-delete']);
  });

  it('says what each decision did', async () => {
    const cases: [ReviewedProfile, ProfileReviewEvent, string][] = [
      [pending, { type: 'profile.reject', reason: 'Contaminated' }, 'Rejected'],
      [profileIn('approved'), { type: 'profile.reset', comments: '' }, 'Reset to pending'],
      [profileIn('rejected'), { type: 'profile.resetDelete' }, 'Reset and its hits deleted'],
    ];
    for (const [profile, event, note] of cases) {
      const { actor, snapshot } = start(profile);
      actor.send(event);
      actor.send({ type: 'decision.confirm' });
      await waitFor(actor, (s) => s.matches('idle'));
      expect(snapshot().context.lastDone, event.type).toBe(note);
    }
  });

  it('on 409, shows that someone else changed the profile, and reloads it to decide again', async () => {
    const { actor, reloads, snapshot } = start(pending, { transition: () => Promise.reject(conflict) });
    actor.send({ type: 'profile.reject', reason: 'Contaminated' });
    actor.send({ type: 'decision.confirm' });
    await waitFor(actor, (s) => s.matches('conflict'));
    expect(snapshot().context.error).toEqual({ status: 409, message: conflict.serverMessage });
    actor.send({ type: 'profile.reload' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(reloads).toEqual([{ profileId: PROFILE_ID }]);
    expect(snapshot().context).toMatchObject({ profile: { status: 'approved', version: 9 }, decision: null, error: null, lastDone: null });
  });

  it('keeps offering Reload, with the new message, when the reload fails', async () => {
    let attempt = 0;
    const { actor, snapshot } = start(pending, {
      transition: () => Promise.reject(conflict),
      reload: async () => (++attempt === 1 ? Promise.reject(new TypeError('fetch failed')) : profileIn('rejected', 5)),
    });
    actor.send({ type: 'profile.approve', comments: '' });
    actor.send({ type: 'decision.confirm' });
    await waitFor(actor, (s) => s.matches('conflict'));
    actor.send({ type: 'profile.reload' });
    await waitFor(actor, (s) => s.matches('conflict') && s.context.error?.status === 0);
    expect(snapshot().context.error).toEqual({ status: 0, message: GENERIC_FAILURE });
    actor.send({ type: 'profile.reload' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(snapshot().context.profile).toMatchObject({ status: 'rejected', version: 5 });
  });

  it('fails with the server message on another error, and sends the same decision on retry', async () => {
    let attempt = 0;
    const { actor, sent, snapshot } = start(profileIn('approved'), {
      transition: async (r) => (++attempt === 1 ? Promise.reject({ status: 403, serverMessage: 'You do not have permission to perform this action.' }) : profileIn('pending', r.version + 1)),
    });
    actor.send({ type: 'profile.reset', comments: 'Re-typed' });
    actor.send({ type: 'decision.confirm' });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(snapshot().context.error).toEqual({ status: 403, message: 'You do not have permission to perform this action.' });
    actor.send({ type: 'decision.retry' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual(sent[0]);
    expect(snapshot().context).toMatchObject({ lastDone: 'Reset to pending', profile: { status: 'pending', version: 4 } });
  });

  it('refuses to run without real calls (the actors must be provided)', async () => {
    const actor = createActor(profileReviewMachine, { input: { profile: pending, allowed: everything } }).start();
    actor.send({ type: 'profile.approve', comments: '' });
    actor.send({ type: 'decision.confirm' });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toEqual({ status: 0, message: GENERIC_FAILURE });
  });
});
