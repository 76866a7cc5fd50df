/**
 * Every state of the profile review a reviewer can reach, drawn by a small screen in this file from
 * a resolved snapshot (no network). "Interactive" runs the machine with fake calls: a reason or
 * comment containing "conflict" gets a 409, "fail" a failure.
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useMachine } from '@xstate/react';
import { useMemo, useState } from 'react';
import type { SnapshotFrom, StateValue } from 'xstate';
import { PROFILE_STATUS_LABELS, type ProfileStatus } from '../../core/schemas/profiles';
import {
  REVIEW_CONSEQUENCES,
  availableActions,
  profileReview,
  profileReviewMachine,
  type ProfileReviewContext,
  type ProfileReviewEvent,
  type ReviewAction,
  type ReviewedProfile,
  type TransitionRequest,
} from '../../machines/profileReview.machine';
import { ReviewDecisionScreen, storyCalls } from './review-decision-screen';

// Sample "suspect" of shared/data/formats/cmf/database_codis_2records_utf8withBOM.csv, a few of its markers.
const profileIn = (status: ProfileStatus, version = 3): ReviewedProfile => ({
  id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  version,
  status,
  markerValues: [
    { markerId: '0d6f8b4a-1c2e-4f3a-8b5c-7d9e0f1a2b3c', marker: 'D3S1358', alleles: ['16', '16'] },
    { markerId: '1e7a9c5b-2d3f-4a4b-9c6d-8e0f1a2b3c4d', marker: 'TH01', alleles: ['7', '7'] },
    { markerId: '2f8b0d6c-3e4a-4b5c-8d7e-9f1a2b3c4d5e', marker: 'vWA', alleles: ['15', '18'] },
    { markerId: '3a9c1e7d-4f5b-4c6d-9e8f-0a1b2c3d4e5f', marker: 'FGA', alleles: ['24', '28'] },
  ],
});
const base: ProfileReviewContext = { record: profileIn('pending'), allowed: { review: true, reset: true }, decision: null, lastDone: null, error: null };
const CONFLICT = 'This record was changed by someone else since you opened it. Reload it and decide again.';

const LABELS: Record<ReviewAction, string> = { approve: 'Approve', reject: 'Reject', reset: 'Reset', 'reset-delete': 'Reset and delete hits' };
const EVENTS: Record<ReviewAction, (text: string) => ProfileReviewEvent> = {
  approve: (comments) => ({ type: 'decision.start', decision: { action: 'approve', comments } }),
  reject: (reason) => ({ type: 'decision.start', decision: { action: 'reject', reason } }),
  reset: (comments) => ({ type: 'decision.start', decision: { action: 'reset', comments } }),
  'reset-delete': () => ({ type: 'decision.start', decision: { action: 'reset-delete' } }),
};

type ReviewSnapshot = SnapshotFrom<typeof profileReviewMachine>;

/** The profile review's decisions and confirmation in the shared story screen. */
function ReviewScreen({ snapshot, send }: { snapshot: ReviewSnapshot; send(event: ProfileReviewEvent): void }) {
  const [text, setText] = useState('');
  const { record: profile, allowed, decision } = snapshot.context;
  const offered = availableActions(profile, allowed);
  const decide =
    offered.length === 0 ? null : (
      <div className="form__fields">
        <label className="field">
          <span className="field__label">Comments or reason</span>
          <textarea className="input input--multiline" value={text} onChange={(e) => setText(e.target.value)} />
        </label>
        <div className="form__actions">
          {offered.map((action) => (
            <button key={action} type="button" className="button button--secondary" disabled={!snapshot.can(EVENTS[action](text))} onClick={() => send(EVENTS[action](text))}>
              {LABELS[action]}
            </button>
          ))}
        </div>
      </div>
    );
  const confirm = decision ? (
    <div className="dialog" role="dialog" aria-label={`${LABELS[decision.action]} this profile?`}>
      <p className="dialog__title">{LABELS[decision.action]} this profile?</p>
      <p>{REVIEW_CONSEQUENCES[decision.action]}</p>
      {decision.action === 'reject' ? <p>Reason: {decision.reason}</p> : null}
      <div className="dialog__actions">
        <button type="button" className="button button--secondary" onClick={() => send({ type: 'decision.cancel' })}>
          Cancel
        </button>
        <button type="button" className={`button ${decision.action === 'reset-delete' ? 'button--danger' : 'button--primary'}`} onClick={() => send({ type: 'decision.confirm' })}>
          {LABELS[decision.action]}
        </button>
      </div>
    </div>
  ) : null;
  const title = (
    <>
      <h1>
        Profile suspect ({PROFILE_STATUS_LABELS[profile.status]}, version {profile.version})
      </h1>
      <p>{profile.markerValues.map((m) => `${m.marker} ${m.alleles.join(',')}`).join('; ')}</p>
    </>
  );
  return <ReviewDecisionScreen snapshot={snapshot} send={send} title={title} noun="profile" decide={decide} confirm={confirm} />;
}

/** The review panel in one state of the machine; events go nowhere (see Interactive). */
function ReviewState({ value, context }: { value: StateValue; context: Partial<ProfileReviewContext> }) {
  return <ReviewScreen snapshot={profileReviewMachine.resolveState({ value, context: { ...base, ...context } })} send={() => undefined} />;
}

const NEXT_STATUS: Record<TransitionRequest['action'], ProfileStatus> = { approve: 'approved', reject: 'rejected', reset: 'pending', 'reset-delete': 'pending' };

/** The machine running with fake calls, starting from a pending profile. */
function InteractiveReview() {
  const logic = useMemo(
    () =>
      profileReview.withCalls(storyCalls((request) => profileIn(NEXT_STATUS[request.action], request.version + 1), profileIn('rejected', 7), CONFLICT)),
    [],
  );
  const [snapshot, send] = useMachine(logic, { input: { record: base.record, allowed: base.allowed } });
  return <ReviewScreen snapshot={snapshot} send={send} />;
}

const meta = { title: 'Machines/Profile review', component: ReviewState, args: { context: {} } } satisfies Meta<typeof ReviewState>;
export default meta;
type Story = StoryObj<typeof meta>;

/** idle, pending: Approve and Reject (Reject waits for a reason). */
export const Pending: Story = { args: { value: 'idle' } };
/** idle, pending, for a user without Profiles Edit: nothing offered. */
export const PendingReadOnly: Story = { args: { value: 'idle', context: { allowed: { review: false, reset: true } } } };
/** idle, pending with no marker values: only Reject (the server refuses to approve it). */
export const PendingWithoutMarkers: Story = { args: { value: 'idle', context: { record: { ...profileIn('pending'), markerValues: [] } } } };
/** idle after an approval: the notice, and Reset / Reset and delete hits. */
export const Approved: Story = { args: { value: 'idle', context: { record: profileIn('approved', 4), lastDone: 'Approved' } } };
/** idle, rejected, for a user without Profiles Reset: nothing offered. */
export const RejectedReadOnly: Story = { args: { value: 'idle', context: { record: profileIn('rejected', 4), allowed: { review: true, reset: false } } } };
/** confirming an approval: what it does, Confirm or Cancel. */
export const ConfirmingApprove: Story = { args: { value: 'confirming', context: { decision: { action: 'approve', comments: 'Peaks checked against the electropherogram' } } } };
/** confirming a rejection with its reason. */
export const ConfirmingReject: Story = { args: { value: 'confirming', context: { decision: { action: 'reject', reason: 'Contaminated extraction blank' } } } };
/** confirming a reset of an approved profile. */
export const ConfirmingReset: Story = { args: { value: 'confirming', context: { record: profileIn('approved', 4), decision: { action: 'reset', comments: 'Re-typed' } } } };
/** confirming reset-and-delete: its hits go too. */
export const ConfirmingResetDelete: Story = { args: { value: 'confirming', context: { record: profileIn('approved', 4), decision: { action: 'reset-delete' } } } };
/** submitting: the decision is being saved. */
export const Submitting: Story = { args: { value: 'submitting', context: { decision: { action: 'approve', comments: '' } } } };
/** conflict: someone else changed the profile (409); only Reload is offered. */
export const Conflict: Story = { args: { value: 'conflict', context: { decision: { action: 'approve', comments: '' }, error: { status: 409, message: CONFLICT } } } };
/** reloading: the current version is being read after a conflict. */
export const Reloading: Story = { args: { value: 'reloading', context: { error: { status: 409, message: CONFLICT } } } };
/** failed: another error; try the same decision again or dismiss it. */
export const Failed: Story = {
  args: { value: 'failed', context: { decision: { action: 'reject', reason: 'Contaminated' }, error: { status: 0, message: 'Your request failed. Please try again later.' } } },
};

export const Interactive: Story = { args: { value: 'idle' }, render: () => <InteractiveReview /> };
