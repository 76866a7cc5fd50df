import { describe, expect, it } from 'vitest';
import { createActor, transition, waitFor, type SnapshotFrom, type StateValue } from 'xstate';
import type { ProfileStatus } from '../../../core/schemas/profiles';
import {
  availableActions,
  profileReview,
  profileReviewMachine,
  transitionRequest,
  type ProfileReviewContext,
  type ProfileReviewEvent,
  type ReviewedProfile,
  type ReviewPermissions,
  type TransitionRequest,
} from '../../../machines/profileReview.machine';

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
  return profileReviewMachine.resolveState({ value, context: { record: pending, allowed: everything, decision: null, lastDone: null, error: null, ...context } });
}

/** Runs the machine with fake calls answering from the given functions, recording what they were asked. */
function start(profile: ReviewedProfile, calls: { transition?: (r: TransitionRequest) => Promise<ReviewedProfile> } = {}) {
  const sent: TransitionRequest[] = [];
  const reloads: string[] = [];
  const logic = profileReview.withCalls({
    transition: async (request) => {
      sent.push(request);
      if (calls.transition) return calls.transition(request);
      const status: ProfileStatus = request.action === 'approve' ? 'approved' : request.action === 'reject' ? 'rejected' : 'pending';
      return profileIn(status, request.version + 1);
    },
    reload: async (id) => {
      reloads.push(id);
      return profileIn('approved', 9);
    },
  });
  const actor = createActor(logic, { input: { record: profile, allowed: everything } }).start();
  return { actor, sent, reloads, snapshot: () => actor.getSnapshot() };
}

const decide = (decision: ProfileReviewContext['decision'] & object): ProfileReviewEvent => ({ type: 'decision.start', decision });

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
      expect(availableActions(profileIn(status), allowed), `${status} ${JSON.stringify(allowed)}`).toEqual(actions);
    }
  });

  it('does not offer approval of a profile without marker values (the server refuses it)', () => {
    expect(availableActions({ ...pending, markerValues: [] }, everything)).toEqual(['reject']);
  });

  it('does not offer approval of one’s own profile under four-eyes review, only its rejection; its reset stays', () => {
    expect(availableActions(pending, { ...everything, ownProfile: true })).toEqual(['reject']);
    expect(availableActions(profileIn('approved'), { ...everything, ownProfile: true })).toEqual(['reset', 'reset-delete']);
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

// The review chart itself (confirmation, 409 and reload, failure and retry) is machines/reviewDecision's, tested
// transition by transition in hit-review.test.ts; here, the profile's rules on it.
describe('profileReview machine: the profile\'s rules', () => {
  it('asks for confirmation of every allowed decision, holding what the user typed', () => {
    const cases: [ProfileStatus, NonNullable<ProfileReviewContext['decision']>][] = [
      ['pending', { action: 'approve', comments: 'Peaks checked' }],
      ['pending', { action: 'reject', reason: 'Contaminated' }],
      ['approved', { action: 'reset', comments: 'Re-typed' }],
      ['rejected', { action: 'reset-delete' }],
    ];
    for (const [status, decision] of cases) {
      const [snapshot] = transition(profileReviewMachine, at('idle', { record: profileIn(status) }), decide(decision));
      expect(snapshot.value, decision.action).toBe('confirming');
      expect(snapshot.context.decision).toEqual(decision);
    }
  });

  it('refuses decisions the status or the permissions do not allow', () => {
    const refused: [ProfileStatus, ReviewPermissions, NonNullable<ProfileReviewContext['decision']>][] = [
      ['approved', everything, { action: 'approve', comments: '' }],
      ['rejected', everything, { action: 'reject', reason: 'Again' }],
      ['pending', { review: false, reset: true }, { action: 'approve', comments: '' }],
      ['pending', { review: false, reset: true }, { action: 'reject', reason: 'Contaminated' }],
      ['pending', everything, { action: 'reset', comments: '' }],
      ['pending', everything, { action: 'reset-delete' }],
      ['approved', { review: true, reset: false }, { action: 'reset', comments: '' }],
      ['rejected', { review: true, reset: false }, { action: 'reset-delete' }],
    ];
    for (const [status, allowed, decision] of refused) {
      const snapshot = at('idle', { record: profileIn(status), allowed });
      expect(snapshot.can(decide(decision)), `${decision.action} on ${status} with ${JSON.stringify(allowed)}`).toBe(false);
      expect(transition(profileReviewMachine, snapshot, decide(decision))[0].value).toBe('idle');
    }
  });

  it('refuses a rejection without a reason, blanks included', () => {
    for (const reason of ['', '   ']) expect(at('idle').can(decide({ action: 'reject', reason }))).toBe(false);
  });

  it('refuses to approve a profile without marker values', () => {
    expect(at('idle', { record: { ...pending, markerValues: [] } }).can(decide({ action: 'approve', comments: '' }))).toBe(false);
  });

  it('refuses the approval of one’s own profile under four-eyes review', () => {
    expect(at('idle', { allowed: { ...everything, ownProfile: true } }).can(decide({ action: 'approve', comments: '' }))).toBe(false);
  });
});

describe('profileReview machine: calls and their outcomes', () => {
  it('approves a pending profile with its marker values, then offers reset with the new version', async () => {
    const { actor, sent, snapshot } = start(pending);
    actor.send(decide({ action: 'approve', comments: 'Peaks checked' }));
    actor.send({ type: 'decision.confirm' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(sent).toEqual([transitionRequest(pending, { action: 'approve', comments: 'Peaks checked' })]);
    expect(snapshot().context).toMatchObject({ record: { status: 'approved', version: 4 }, decision: null, lastDone: 'Approved', error: null });
    expect(availableActions(snapshot().context.record, everything)).toEqual(['reset', 'reset-delete']);
  });

  it('says what each decision did', async () => {
    const cases: [ReviewedProfile, NonNullable<ProfileReviewContext['decision']>, string][] = [
      [pending, { action: 'reject', reason: 'Contaminated' }, 'Rejected'],
      [profileIn('approved'), { action: 'reset', comments: '' }, 'Reset to pending'],
      [profileIn('rejected'), { action: 'reset-delete' }, 'Reset and its hits deleted'],
    ];
    for (const [profile, decision, note] of cases) {
      const { actor, snapshot } = start(profile);
      actor.send(decide(decision));
      actor.send({ type: 'decision.confirm' });
      await waitFor(actor, (s) => s.matches('idle'));
      expect(snapshot().context.lastDone, decision.action).toBe(note);
    }
  });

  it('on 409, reloads the profile by its id to decide again', async () => {
    const { actor, reloads, snapshot } = start(pending, { transition: () => Promise.reject(conflict) });
    actor.send(decide({ action: 'reject', reason: 'Contaminated' }));
    actor.send({ type: 'decision.confirm' });
    await waitFor(actor, (s) => s.matches('conflict'));
    expect(snapshot().context.error).toEqual({ status: 409, message: conflict.serverMessage });
    actor.send({ type: 'record.reload' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(reloads).toEqual([PROFILE_ID]);
    expect(snapshot().context).toMatchObject({ record: { status: 'approved', version: 9 }, decision: null, error: null, lastDone: null });
  });
});
