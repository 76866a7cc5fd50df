import type { EditorError } from '../../machines/recordEditor.machine';
import { FailureNotice } from './failure-notice';

/** The part of a review machine's snapshot (machines/reviewDecision) the outcome shows. */
interface ReviewOutcomeSnapshot {
  matches(state: 'conflict' | 'reloading' | 'failed'): boolean;
  hasTag(tag: 'busy'): boolean;
  context: { lastDone: string | null; error: EditorError | null };
}

interface ReviewOutcomeProps {
  snapshot: ReviewOutcomeSnapshot;
  send(event: { type: 'record.reload' } | { type: 'decision.retry' } | { type: 'failure.dismiss' }): void;
  /** What a 409 means for this record, and the button that reads it again. */
  conflict: { text: string; reload: string };
}

/**
 * What a review decision came to, the same for profiles and hits: the notice of the last decision,
 * a 409 (someone else changed the record) with only Reload offered, or another failure with Try
 * again and Dismiss.
 */
export function ReviewOutcome({ snapshot, send, conflict }: ReviewOutcomeProps) {
  const { lastDone, error } = snapshot.context;
  return (
    <>
      {lastDone ? (
        <p className="notice" role="status">
          {lastDone}.
        </p>
      ) : null}
      {snapshot.matches('conflict') || snapshot.matches('reloading') ? (
        <div className="notice notice--negative" role="alert">
          <p>
            {conflict.text} {error?.message}
          </p>
          <button type="button" className="button button--secondary" disabled={snapshot.hasTag('busy')} onClick={() => send({ type: 'record.reload' })}>
            {conflict.reload}
          </button>
        </div>
      ) : null}
      {snapshot.matches('failed') ? (
        <FailureNotice text={`The decision was not saved: ${error?.message ?? ''}`} onRetry={() => send({ type: 'decision.retry' })} onDismiss={() => send({ type: 'failure.dismiss' })} />
      ) : null}
    </>
  );
}
