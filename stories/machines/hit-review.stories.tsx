/**
 * Every state of the hit review a reviewer can reach, drawn by a small screen in this file from a
 * resolved snapshot (no network). "Interactive" runs the machine with fake calls: comments or a
 * reason containing "conflict" get a 409 (another reviewer decided first), "fail" a failure.
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useMachine } from '@xstate/react';
import { useMemo, useState } from 'react';
import type { SnapshotFrom, StateValue } from 'xstate';
import {
  availableActions,
  decisionConsequence,
  hitReview,
  hitReviewMachine,
  type HitAction,
  type HitReviewContext,
  type HitReviewEvent,
  type HitStatus,
  type HitTransitionRequest,
  type ReviewedHit,
} from '../../machines/hitReview.machine';
import { ReviewDecisionScreen, storyCalls } from './review-decision-screen';

const hitIn = (status: HitStatus, version = 2): ReviewedHit => ({ id: '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b', version, status });
const base: HitReviewContext = { record: hitIn('pending'), allowed: { publish: true, reset: true }, decision: null, lastDone: null, error: null };
const CONFLICT = 'This hit was decided by someone else since you opened it. Reload it and decide again.';

const LABELS: Record<HitAction, string> = { publish: 'Publish', reject: 'Reject', reset: 'Reset to pending' };
const eventOf = (action: HitAction, text: string, notify: boolean): HitReviewEvent => ({
  type: 'decision.start',
  decision: action === 'publish' ? { action, comments: text, notify } : action === 'reject' ? { action, reason: text } : { action, comments: text },
});

type ReviewSnapshot = SnapshotFrom<typeof hitReviewMachine>;

/** The hit review's decisions and confirmation in the shared story screen. */
function ReviewScreen({ snapshot, send }: { snapshot: ReviewSnapshot; send(event: HitReviewEvent): void }) {
  const [text, setText] = useState('');
  const [notify, setNotify] = useState(true);
  const { record: hit, allowed, decision } = snapshot.context;
  const offered = availableActions(hit, allowed);
  const decide =
    offered.length === 0 ? null : (
      <div className="form__fields">
        <label className="field">
          <span className="field__label">Comments or reason</span>
          <textarea className="input input--multiline" value={text} onChange={(e) => setText(e.target.value)} />
        </label>
        {offered.includes('publish') ? (
          <label>
            <input type="checkbox" checked={notify} onChange={(e) => setNotify(e.target.checked)} /> Notify the case’s assigned users
          </label>
        ) : null}
        <div className="form__actions">
          {offered.map((action) => (
            <button key={action} type="button" className="button button--secondary" disabled={!snapshot.can(eventOf(action, text, notify))} onClick={() => send(eventOf(action, text, notify))}>
              {LABELS[action]}
            </button>
          ))}
        </div>
      </div>
    );
  const confirm = decision ? (
    <div className="dialog" role="dialog" aria-label={`${LABELS[decision.action]} this hit?`}>
      <p className="dialog__title">{LABELS[decision.action]} this hit?</p>
      <p>{decisionConsequence(decision, hit.status)}</p>
      {decision.action === 'reject' ? <p>Reason: {decision.reason}</p> : decision.comments ? <p>Comments: {decision.comments}</p> : null}
      <div className="dialog__actions">
        <button type="button" className="button button--secondary" onClick={() => send({ type: 'decision.cancel' })}>
          Cancel
        </button>
        <button type="button" className="button button--primary" onClick={() => send({ type: 'decision.confirm' })}>
          {LABELS[decision.action]}
        </button>
      </div>
    </div>
  ) : null;
  const title = (
    <h1>
      Hit ({hit.status}, version {hit.version})
    </h1>
  );
  return <ReviewDecisionScreen snapshot={snapshot} send={send} title={title} noun="hit" decide={decide} confirm={confirm} />;
}

/** The review panel in one state of the machine; events go nowhere (see Interactive). */
function ReviewState({ value, context }: { value: StateValue; context: Partial<HitReviewContext> }) {
  return <ReviewScreen snapshot={hitReviewMachine.resolveState({ value, context: { ...base, ...context } })} send={() => undefined} />;
}

const NEXT_STATUS: Record<HitTransitionRequest['action'], HitStatus> = { publish: 'published', reject: 'rejected', reset: 'pending' };

/** The machine running with fake calls, starting from a pending hit. */
function InteractiveReview() {
  const logic = useMemo(
    () =>
      hitReview.withCalls(storyCalls((request) => hitIn(NEXT_STATUS[request.action], request.version + 1), hitIn('published', 6), CONFLICT)),
    [],
  );
  const [snapshot, send] = useMachine(logic, { input: { record: base.record, allowed: base.allowed } });
  return <ReviewScreen snapshot={snapshot} send={send} />;
}

const meta = { title: 'Machines/Hit review', component: ReviewState, args: { context: {} } } satisfies Meta<typeof ReviewState>;
export default meta;
type Story = StoryObj<typeof meta>;

/** idle, pending: Publish (with Notify) and Reject (Reject waits for a reason). */
export const Pending: Story = { args: { value: 'idle' } };
/** idle, pending, for a user without Hits Publish: nothing offered. */
export const PendingReadOnly: Story = { args: { value: 'idle', context: { allowed: { publish: false, reset: true } } } };
/** idle after publishing: the notice, and Reset to pending. */
export const Published: Story = { args: { value: 'idle', context: { record: hitIn('published', 3), lastDone: 'Published' } } };
/** idle after rejecting: the notice, and Reset to pending. */
export const Rejected: Story = { args: { value: 'idle', context: { record: hitIn('rejected', 3), lastDone: 'Rejected' } } };
/** idle, published, for a user without Hits Reset: nothing offered. */
export const PublishedReadOnly: Story = { args: { value: 'idle', context: { record: hitIn('published', 3), allowed: { publish: true, reset: false } } } };
/** confirming a publication that e-mails the case's users. */
export const ConfirmingPublishNotify: Story = {
  args: { value: 'confirming', context: { decision: { action: 'publish', comments: 'Confirmed by a second analyst', notify: true } } },
};
/** confirming a publication that tells nobody. */
export const ConfirmingPublishQuiet: Story = { args: { value: 'confirming', context: { decision: { action: 'publish', comments: '', notify: false } } } };
/** confirming a rejection with its reason. */
export const ConfirmingReject: Story = { args: { value: 'confirming', context: { decision: { action: 'reject', reason: 'Two samples of the same person' } } } };
/** confirming a reset of a published hit. */
export const ConfirmingReset: Story = { args: { value: 'confirming', context: { record: hitIn('published', 3), decision: { action: 'reset', comments: 'Published in error' } } } };
/** submitting: the decision is being saved. */
export const Submitting: Story = { args: { value: 'submitting', context: { decision: { action: 'publish', comments: '', notify: true } } } };
/** conflict: someone else decided first (409); only Reload is offered. */
export const Conflict: Story = {
  args: { value: 'conflict', context: { decision: { action: 'publish', comments: '', notify: true }, error: { status: 409, message: CONFLICT } } },
};
/** reloading: the current version is being read after a conflict. */
export const Reloading: Story = { args: { value: 'reloading', context: { error: { status: 409, message: CONFLICT } } } };
/** failed: another error; try the same decision again or dismiss it. */
export const Failed: Story = {
  args: { value: 'failed', context: { decision: { action: 'reject', reason: 'Relatives' }, error: { status: 0, message: 'Your request failed. Please try again later.' } } },
};

export const Interactive: Story = { args: { value: 'idle' }, render: () => <InteractiveReview /> };
