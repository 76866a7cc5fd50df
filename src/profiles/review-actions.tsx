import { useEffect, useMemo, useState } from 'react';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import { can } from '../../core/permissions';
import type { ProfileWithMarkers } from '../../core/schemas/profiles';
import {
  availableActions,
  profileReviewMachine,
  REVIEW_CONSEQUENCES,
  type ReviewAction,
  type ReviewedProfile,
  type TransitionRequest,
} from '../../machines/profileReview.machine';
import { usePrincipal } from '../app/use-principal';
import { ConfirmDialog } from '../ui/confirm-dialog';
import type { ProfileCalls } from './profiles-api';

/** The buttons of each decision and what its confirmation asks. */
const LABELS: Record<ReviewAction, { button: string; confirm: string; title: string }> = {
  approve: { button: 'Approve', confirm: 'Approve', title: 'Approve this profile?' },
  reject: { button: 'Reject', confirm: 'Reject', title: 'Reject this profile?' },
  reset: { button: 'Reset to pending', confirm: 'Reset', title: 'Reset this profile to pending?' },
  'reset-delete': { button: 'Reset and delete hits', confirm: 'Reset and delete hits', title: 'Reset and delete every hit?' },
};

/** The review call of one decision; every call answers with the profile as it now is. */
function sendDecision(calls: ProfileCalls, request: TransitionRequest): Promise<ProfileWithMarkers> {
  switch (request.action) {
    case 'approve':
      return calls.approve(request.profileId, request.body);
    case 'reject':
      return calls.reject(request.profileId, request.body);
    case 'reset':
      return calls.reset(request.profileId, request.body);
    case 'reset-delete':
      return calls.resetDelete(request.profileId);
  }
}

interface ReviewActionsProps {
  profile: ProfileWithMarkers;
  calls: ProfileCalls;
  /** The profile after a decision or a reload, for the rest of the view. */
  onChange(profile: ProfileWithMarkers): void;
}

/**
 * The review of a profile (spec 4, driven by machines/profileReview): approve with the shown marker
 * values and comments, reject with a reason (Profiles Edit, pending profiles); reset, or reset and
 * delete its hits (Profiles Reset, approved or rejected ones). Each decision is confirmed; a 409
 * says someone else changed the profile and offers to reload it.
 */
export function ReviewActions({ profile, calls, onChange }: ReviewActionsProps) {
  const principal = usePrincipal();
  const context = { orgId: profile.organizationId };
  const logic = useMemo(
    () =>
      profileReviewMachine.provide({
        actors: {
          transition: fromPromise<ReviewedProfile, TransitionRequest>(async ({ input }) => {
            const changed = await sendDecision(calls, input);
            onChange(changed);
            return changed;
          }),
          reload: fromPromise<ReviewedProfile, { profileId: string }>(async ({ input }) => {
            const current = await calls.get(input.profileId);
            onChange(current);
            return current;
          }),
        },
      }),
    [calls],
  );
  const [snapshot, send] = useMachine(logic, {
    input: { profile, allowed: { review: can(principal, 'Profiles', 'Edit', context), reset: can(principal, 'Profiles', 'Reset', context) } },
  });
  const [text, setText] = useState('');
  const { decision, error, lastDone } = snapshot.context;
  const actions = availableActions(snapshot.context);
  const pending = snapshot.context.profile.status === 'pending';
  const busy = snapshot.hasTag('busy');
  // A decision that went through leaves the comments field empty for the next one.
  useEffect(() => {
    if (lastDone) setText('');
  }, [lastDone]);

  if (actions.length === 0 && !snapshot.matches('conflict') && !lastDone) return null;
  const eventOf = (action: ReviewAction) =>
    action === 'approve'
      ? ({ type: 'profile.approve', comments: text } as const)
      : action === 'reject'
        ? ({ type: 'profile.reject', reason: text } as const)
        : action === 'reset'
          ? ({ type: 'profile.reset', comments: text } as const)
          : ({ type: 'profile.resetDelete' } as const);

  return (
    <section className="profile-review" aria-labelledby="profile-review-title">
      <h2 id="profile-review-title">Review</h2>
      {lastDone ? (
        <p className="notice" role="status">
          {lastDone}.
        </p>
      ) : null}
      {snapshot.matches('conflict') || snapshot.matches('reloading') ? (
        <div className="notice notice--negative" role="alert">
          <p>Someone else changed this profile since you opened it. {error?.message}</p>
          <button type="button" className="button button--secondary" disabled={busy} onClick={() => send({ type: 'profile.reload' })}>
            Reload
          </button>
        </div>
      ) : null}
      {snapshot.matches('failed') ? (
        <div className="notice notice--negative" role="alert">
          <p>The decision was not saved: {error?.message}</p>
          <button type="button" className="button button--secondary" onClick={() => send({ type: 'decision.retry' })}>
            Try again
          </button>{' '}
          <button type="button" className="button button--secondary" onClick={() => send({ type: 'failure.dismiss' })}>
            Dismiss
          </button>
        </div>
      ) : null}
      {actions.length > 0 ? (
        <div className="profile-review__decide">
          <div className="field">
            <label className="field__label" htmlFor="review-comments">
              {pending ? 'Comments (a rejection needs a reason)' : 'Comments'}
            </label>
            <textarea id="review-comments" className="input input--multiline" rows={2} value={text} disabled={busy} onChange={(e) => setText(e.target.value)} />
          </div>
          <div className="profile-actions__group">
            {actions.map((action) => (
              <button
                key={action}
                type="button"
                className={`button ${action === 'approve' ? 'button--primary' : action === 'reset-delete' ? 'button--danger' : 'button--secondary'}`}
                disabled={!snapshot.can(eventOf(action))}
                onClick={() => send(eventOf(action))}
              >
                {LABELS[action].button}
              </button>
            ))}
          </div>
        </div>
      ) : null}
      {decision ? (
        <ConfirmDialog
          open={snapshot.matches('confirming') || snapshot.matches('submitting')}
          title={LABELS[decision.action].title}
          confirmLabel={LABELS[decision.action].confirm}
          busy={busy}
          onConfirm={() => send({ type: 'decision.confirm' })}
          onCancel={() => send({ type: 'decision.cancel' })}
        >
          <p>{REVIEW_CONSEQUENCES[decision.action]}</p>
          {'reason' in decision ? <p>Reason: {decision.reason}</p> : 'comments' in decision && decision.comments ? <p>Comments: {decision.comments}</p> : null}
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
