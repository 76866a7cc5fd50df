import { useMachine } from '@xstate/react';
import { useId, useMemo, useRef, type ReactNode } from 'react';
import type { BulkReviewResult } from '../../../core/schemas/bulk-review';
import { BULK_REVIEW_LIMIT } from '../../../core/schemas/bulk-review';
import {
  decisionReady,
  describeOutcome,
  type BulkRequest,
  type BulkReviewContext,
  type BulkReviewEvent,
  type BulkReviewRules,
  type createBulkReviewMachine,
} from '../../../machines/bulkReview.machine';
import { ConfirmDialog } from '../confirm-dialog';
import { FailureNotice } from '../failure-notice';
import type { DataColumn } from '../data-table/data-table';
import { selectionColumn, type BulkReviewActor } from './selection-column';
import './bulk-review.css';

/** How one decision reads: its button ("Approve") and what the confirmation says it does to each record. */
export interface BulkActionText {
  button: string;
  consequence: string;
}

interface BulkReviewProps<A extends string, T extends { id: string; version: number }> {
  /** The domain's machine (machines/bulkReview: profileBulkReview, hitBulkReview). */
  bulk: ReturnType<typeof createBulkReviewMachine<A>>;
  /** The decisions the user's permissions allow; none: the list shows no checkboxes. */
  allowed: readonly A[];
  /** The bulk call. */
  call(request: BulkRequest<A>): Promise<BulkReviewResult>;
  /** After the call answered: read the list again. */
  onDecided(): void;
  actions: Record<A, BulkActionText>;
  /** The decision whose confirmation asks whether to notify (publishing a hit). */
  notifies?: A;
  /** 'profile' / 'profiles'. */
  noun: { one: string; many: string };
  /** How the result and the confirmation name a row. */
  rowLabel(row: T): string;
  /** The list, given the selection column (null when nothing may be decided). */
  children(column: DataColumn<T> | null): ReactNode;
}

/**
 * Deciding several rows of a review list at once (issue 18; machines/bulkReview): a checkbox per row, a bar
 * with "N selected" and the decisions, a confirmation listing what will be decided (a rejection's reason
 * required), then what became of each record, refused ones named with the reason.
 */
export function BulkReview<A extends string, T extends { id: string; version: number }>(props: BulkReviewProps<A, T>) {
  const { bulk, allowed, actions, notifies, noun } = props;
  const latest = useRef(props);
  latest.current = props;
  const logic = useMemo(
    () =>
      bulk.withCall(async (request) => {
        try {
          return await latest.current.call(request);
        } finally {
          // Even a failed call may have decided some records before it broke off.
          latest.current.onDecided();
        }
      }),
    [bulk],
  );
  const [snapshot, send, actor] = useMachine(logic, { input: { allowed } });
  const column = useMemo(() => (allowed.length > 0 ? selectionColumn<A, T>(actor as BulkReviewActor<A>, (row) => latest.current.rowLabel(row)) : null), [actor, allowed.length > 0]);
  return (
    <BulkReviewView snapshot={snapshot} send={send} rules={bulk.rules} actions={actions} noun={noun} {...(notifies ? { notifies } : {})}>
      {props.children(column)}
    </BulkReviewView>
  );
}

/** The part of a bulk review machine's snapshot the view draws (a running machine's, or a story's resolved one). */
export interface BulkReviewSnapshot<A extends string> {
  context: BulkReviewContext<A>;
  matches(state: 'idle' | 'confirming' | 'submitting' | 'failed'): boolean;
  hasTag(tag: 'busy'): boolean;
}

interface BulkReviewViewProps<A extends string> {
  snapshot: BulkReviewSnapshot<A>;
  send(event: BulkReviewEvent<A>): void;
  rules: BulkReviewRules<A>;
  actions: Record<A, BulkActionText>;
  notifies?: A;
  noun: { one: string; many: string };
  /** The list. */
  children: ReactNode;
}

/** What the bulk review shows in each state: the outcome or failure, the bar over the list, the confirmation. */
export function BulkReviewView<A extends string>({ snapshot, send, rules, actions, notifies, noun, children }: BulkReviewViewProps<A>) {
  const ids = { text: useId(), notify: useId() };
  const { allowed, selected, decision, error } = snapshot.context;
  const outcome = describeOutcome(rules, snapshot.context);
  const busy = snapshot.hasTag('busy');
  const count = (n: number) => `${n} ${n === 1 ? noun.one : noun.many}`;
  // The selection stays as it is while confirming and sending: it is what the dialog lists.
  const records = selected;
  const needsReason = decision ? rules.needsReason(decision.action) : false;

  return (
    <>
      {outcome ? (
        <div className={outcome.refused.length > 0 ? 'notice notice--warning' : 'notice'} role="status">
          <p>{outcome.summary}</p>
          {outcome.refused.length > 0 ? (
            <ul className="bulk-review__refused">
              {outcome.refused.map((r) => (
                <li key={r.id}>
                  <strong>{r.label}</strong>: {r.message}
                </li>
              ))}
            </ul>
          ) : null}
          <button type="button" className="button button--secondary" onClick={() => send({ type: 'outcome.dismiss' })}>
            Dismiss
          </button>
        </div>
      ) : null}
      {snapshot.matches('failed') ? (
        <FailureNotice text={`The decision was not sent: ${error?.message ?? ''}`} onRetry={() => send({ type: 'bulk.retry' })} onDismiss={() => send({ type: 'failure.dismiss' })} />
      ) : null}
      {selected.length > 0 && snapshot.matches('idle') ? (
        <div className="bulk-review__bar" role="region" aria-label={`Selected ${noun.many}`}>
          <span className="bulk-review__count">
            {selected.length} selected{selected.length >= BULK_REVIEW_LIMIT ? ` (at most ${BULK_REVIEW_LIMIT} at once)` : ''}
          </span>
          {allowed.map((action) => (
            <button key={action} type="button" className="button button--primary" onClick={() => send({ type: 'bulk.start', action })}>
              {actions[action].button}
            </button>
          ))}
          <button type="button" className="button button--secondary" onClick={() => send({ type: 'selection.clear' })}>
            Clear selection
          </button>
        </div>
      ) : null}
      {children}
      {decision ? (
        <ConfirmDialog
          open={snapshot.matches('confirming') || snapshot.matches('submitting')}
          title={`${actions[decision.action].button} ${count(records.length)}?`}
          confirmLabel={`${actions[decision.action].button} ${count(records.length)}`}
          busy={busy}
          confirmDisabled={!decisionReady(rules, decision)}
          onConfirm={() => send({ type: 'bulk.confirm' })}
          onCancel={() => send({ type: 'bulk.cancel' })}
        >
          <p>{actions[decision.action].consequence}</p>
          <ul className="bulk-review__records" aria-label={`The ${noun.many} to decide`}>
            {records.map((r) => (
              <li key={r.id}>{r.label}</li>
            ))}
          </ul>
          <div className="field">
            <label className="field__label" htmlFor={ids.text}>
              {needsReason ? 'Reason (required)' : 'Comments'}
            </label>
            <textarea id={ids.text} className="input input--multiline" rows={2} value={decision.text} disabled={busy} onChange={(e) => send({ type: 'text.change', text: e.target.value })} />
          </div>
          {decision.action === notifies ? (
            <label className="field--checkbox" htmlFor={ids.notify}>
              <input id={ids.notify} type="checkbox" checked={decision.notify} disabled={busy} onChange={(e) => send({ type: 'notify.change', notify: e.target.checked })} />
              <span>Notify each case’s assigned users by e-mail</span>
            </label>
          ) : null}
        </ConfirmDialog>
      ) : null}
    </>
  );
}
