import { useEffect, useMemo, useState } from 'react';
import { useMachine } from '@xstate/react';
import { isOwnProfile, ownProfileRefusal } from '../../core/four-eyes';
import { can } from '../../core/permissions';
import type { ProfileWithMarkers } from '../../core/schemas/profiles';
import {
  availableActions,
  profileReview,
  REVIEW_CONSEQUENCES,
  type ReviewAction,
  type ReviewDecision,
  type TransitionRequest,
} from '../../machines/profileReview.machine';
import { useShellSession } from '../app/shell-session';
import { usePrincipal } from '../app/use-principal';
import { ReviewConfirmDialog } from '../ui/review-confirm-dialog';
import { ReviewOutcome } from '../ui/review-outcome';
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
 * delete its hits (Profiles Reset, approved or rejected ones). Under four-eyes review whoever entered
 * the profile is not offered Approve and is told why (core/four-eyes.ts, the server's rule and words).
 * Each decision is confirmed; a 409 says someone else changed the profile and offers to reload it.
 */
export function ReviewActions({ profile, calls, onChange }: ReviewActionsProps) {
  const principal = usePrincipal();
  const { me } = useShellSession();
  const context = { orgId: profile.organizationId };
  const ownProfile = isOwnProfile(profile.enteredById, me.id, profile.fourEyesReview);
  const logic = useMemo(
    () =>
      profileReview.withCalls({
        transition: async (request) => {
          const changed = await sendDecision(calls, request);
          onChange(changed);
          return changed;
        },
        reload: async (id) => {
          const current = await calls.get(id);
          onChange(current);
          return current;
        },
      }),
    [calls],
  );
  const [snapshot, send] = useMachine(logic, {
    input: { record: profile, allowed: { review: can(principal, 'Profiles', 'Edit', context), reset: can(principal, 'Profiles', 'Reset', context), ownProfile } },
  });
  const [text, setText] = useState('');
  const { decision, lastDone } = snapshot.context;
  const actions = availableActions(snapshot.context.record, snapshot.context.allowed);
  const pending = snapshot.context.record.status === 'pending';
  // Only a reviewer who could otherwise approve it needs telling why Approve is missing.
  const fourEyesNote = pending && snapshot.context.allowed.review && ownProfile && profile.markerValues.length > 0;
  const busy = snapshot.hasTag('busy');
  // A decision that went through leaves the comments field empty for the next one.
  useEffect(() => {
    if (lastDone) setText('');
  }, [lastDone]);

  if (actions.length === 0 && !snapshot.matches('conflict') && !lastDone) return null;
  const decisionOf = (action: ReviewAction): ReviewDecision =>
    action === 'approve' ? { action, comments: text } : action === 'reject' ? { action, reason: text } : action === 'reset' ? { action, comments: text } : { action };
  const eventOf = (action: ReviewAction) => ({ type: 'decision.start', decision: decisionOf(action) }) as const;

  return (
    <section className="profile-review" aria-labelledby="profile-review-title">
      <h2 id="profile-review-title">Review</h2>
      <ReviewOutcome snapshot={snapshot} send={send} conflict={{ text: 'Someone else changed this profile since you opened it.', reload: 'Reload' }} />
      {fourEyesNote ? (
        <p className="notice" role="note">
          {ownProfileRefusal(profile.profileId)}
        </p>
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
        <ReviewConfirmDialog snapshot={snapshot} send={send} title={LABELS[decision.action].title} confirmLabel={LABELS[decision.action].confirm}>
          <p>{REVIEW_CONSEQUENCES[decision.action]}</p>
          {'reason' in decision ? <p>Reason: {decision.reason}</p> : 'comments' in decision && decision.comments ? <p>Comments: {decision.comments}</p> : null}
        </ReviewConfirmDialog>
      ) : null}
    </section>
  );
}
