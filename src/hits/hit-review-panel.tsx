import { useMachine } from '@xstate/react';
import { useEffect, useId, useMemo, useState } from 'react';
import { isOwnProfile, ownHitRefusal } from '../../core/four-eyes';
import { RETRACTION_REASON_REQUIRED, resetNeedsReason } from '../../core/hit-retraction';
import { can } from '../../core/permissions';
import type { HitView } from '../../core/schemas/hits';
import {
  availableActions,
  decisionConsequence,
  hitReview,
  type HitAction,
  type HitDecision,
  type HitTransitionRequest,
} from '../../machines/hitReview.machine';
import { useShellSession } from '../app/shell-session';
import { usePrincipal } from '../app/use-principal';
import { ReviewConfirmDialog } from '../ui/review-confirm-dialog';
import { ReviewOutcome } from '../ui/review-outcome';
import type { HitCalls } from './hits-api';

/** The buttons of each decision and what its confirmation asks. */
const LABELS: Record<HitAction, { button: string; title: string }> = {
  publish: { button: 'Publish', title: 'Publish this hit?' },
  reject: { button: 'Reject', title: 'Reject this hit?' },
  reset: { button: 'Reset to pending', title: 'Reset this hit to pending?' },
};

/** The review call of one decision; every call answers with the hit's view as it now is. */
function sendDecision(calls: HitCalls, request: HitTransitionRequest): Promise<HitView> {
  switch (request.action) {
    case 'publish':
      return calls.publish(request.hitId, request.body);
    case 'reject':
      return calls.reject(request.hitId, request.body);
    case 'reset':
      return calls.reset(request.hitId, request.body);
  }
}

interface HitReviewPanelProps {
  view: HitView;
  calls: HitCalls;
  /** The hit after a decision or a reload, for the rest of the view. */
  onChange(view: HitView): void;
}

/**
 * The review of a hit (spec 2.4, 4; driven by machines/hitReview): publish with comments and a
 * Notify choice, reject with a reason (Hits Publish, pending hits); reset to pending (Hits Reset,
 * published or rejected ones; a published one only with a reason, since it is retracted and the
 * people notified are e-mailed). Under four-eyes review who entered one of its profiles is not
 * offered Publish and is told why. Each decision is confirmed; a 409 says another reviewer decided
 * first and offers only to reload the hit.
 */
export function HitReviewPanel({ view, calls, onChange }: HitReviewPanelProps) {
  const principal = usePrincipal();
  const { me } = useShellSession();
  const context = { orgId: view.hit.organizationId };
  const ownProfiles = view.hit.profiles.filter((p) => isOwnProfile(p.enteredById, me.id, view.fourEyesReview)).map((p) => p.sampleName);
  const logic = useMemo(
    () =>
      hitReview.withCalls({
        transition: async (request) => {
          const changed = await sendDecision(calls, request);
          onChange(changed);
          return changed.hit;
        },
        reload: async (id) => {
          const current = await calls.view(id);
          onChange(current);
          return current.hit;
        },
      }),
    [calls],
  );
  const [snapshot, send] = useMachine(logic, {
    input: { record: view.hit, allowed: { publish: can(principal, 'Hits', 'Publish', context), reset: can(principal, 'Hits', 'Reset', context), ownProfile: ownProfiles.length > 0 } },
  });
  const [text, setText] = useState('');
  const [notify, setNotify] = useState(true);
  const ids = { text: useId(), notify: useId(), why: useId() };
  const { record: hit, allowed, decision, lastDone } = snapshot.context;
  const actions = availableActions(hit, allowed);
  const busy = snapshot.hasTag('busy');
  const stale = snapshot.matches('conflict') || snapshot.matches('reloading');
  // A decision that went through leaves the field empty for the next one.
  useEffect(() => {
    if (lastDone) setText('');
  }, [lastDone]);

  if (actions.length === 0 && !stale && !lastDone) return null;
  const decisionOf = (action: HitAction): HitDecision =>
    action === 'publish' ? { action, comments: text, notify } : action === 'reject' ? { action, reason: text } : { action, comments: text };
  const eventOf = (action: HitAction) => ({ type: 'decision.start', decision: decisionOf(action) }) as const;
  const pending = hit.status === 'pending';
  const retraction = resetNeedsReason(hit.status);
  const label = pending ? 'Comments (a rejection needs a reason)' : retraction ? 'Reason for retracting (required)' : 'Comments';

  return (
    <section className="hit-review" aria-labelledby="hit-review-title">
      <h2 id="hit-review-title">Review</h2>
      <ReviewOutcome snapshot={snapshot} send={send} conflict={{ text: 'This hit was changed since you opened it; another reviewer may have decided it first.', reload: 'Reload the hit' }} />
      {pending && allowed.publish && ownProfiles.length > 0 && !stale ? (
        <p className="notice" role="note">
          {ownHitRefusal(ownProfiles)}
        </p>
      ) : null}
      {actions.length > 0 && !stale ? (
        <div className="hit-review__decide">
          <div className="field">
            <label className="field__label" htmlFor={ids.text}>
              {label}
            </label>
            <textarea
              id={ids.text}
              className="input input--multiline"
              rows={2}
              value={text}
              disabled={busy}
              aria-describedby={retraction ? ids.why : undefined}
              onChange={(e) => setText(e.target.value)}
            />
            {retraction ? (
              <p id={ids.why} className="field__hint">
                {RETRACTION_REASON_REQUIRED}
              </p>
            ) : null}
          </div>
          {actions.includes('publish') ? (
            <label className="field--checkbox" htmlFor={ids.notify}>
              <input id={ids.notify} type="checkbox" checked={notify} disabled={busy} onChange={(e) => setNotify(e.target.checked)} />
              <span>Notify the case’s assigned users by e-mail on publishing</span>
            </label>
          ) : null}
          <div className="form__actions">
            {actions.map((action) => (
              <button
                key={action}
                type="button"
                className={`button ${action === 'publish' ? 'button--primary' : 'button--secondary'}`}
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
        <ReviewConfirmDialog snapshot={snapshot} send={send} title={LABELS[decision.action].title} confirmLabel={LABELS[decision.action].button}>
          <p>{decisionConsequence(decision, hit.status)}</p>
          {decision.action === 'reject' || (decision.action === 'reset' && retraction) ? (
            <p>Reason: {decision.action === 'reject' ? decision.reason : decision.comments}</p>
          ) : decision.comments.trim() ? (
            <p>Comments: {decision.comments}</p>
          ) : null}
        </ReviewConfirmDialog>
      ) : null}
    </section>
  );
}
