import { useMachine } from '@xstate/react';
import { useEffect, useId, useMemo, useState } from 'react';
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
 * published or rejected ones). Each decision is confirmed; a 409 says another reviewer decided
 * first and offers only to reload the hit.
 */
export function HitReviewPanel({ view, calls, onChange }: HitReviewPanelProps) {
  const principal = usePrincipal();
  const context = { orgId: view.hit.organizationId };
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
    input: { record: view.hit, allowed: { publish: can(principal, 'Hits', 'Publish', context), reset: can(principal, 'Hits', 'Reset', context) } },
  });
  const [text, setText] = useState('');
  const [notify, setNotify] = useState(true);
  const ids = { text: useId(), notify: useId() };
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

  return (
    <section className="hit-review" aria-labelledby="hit-review-title">
      <h2 id="hit-review-title">Review</h2>
      <ReviewOutcome snapshot={snapshot} send={send} conflict={{ text: 'This hit was changed since you opened it; another reviewer may have decided it first.', reload: 'Reload the hit' }} />
      {actions.length > 0 && !stale ? (
        <div className="hit-review__decide">
          <div className="field">
            <label className="field__label" htmlFor={ids.text}>
              {pending ? 'Comments (a rejection needs a reason)' : 'Comments'}
            </label>
            <textarea id={ids.text} className="input input--multiline" rows={2} value={text} disabled={busy} onChange={(e) => setText(e.target.value)} />
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
          <p>{decisionConsequence(decision)}</p>
          {decision.action === 'reject' ? <p>Reason: {decision.reason}</p> : decision.comments.trim() ? <p>Comments: {decision.comments}</p> : null}
        </ReviewConfirmDialog>
      ) : null}
    </section>
  );
}
