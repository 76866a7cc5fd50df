import type { ReactNode } from 'react';
import type { EditorError } from '../../machines/recordEditor.machine';
import type { ReviewCalls } from '../../machines/reviewDecision.machine';

/** The part of a review machine's snapshot (machines/reviewDecision) the story screen draws. */
interface ScreenSnapshot {
  value: unknown;
  matches(state: 'idle' | 'confirming' | 'reloading'): boolean;
  hasTag(tag: 'busy'): boolean;
  can(event: { type: 'record.reload' } | { type: 'decision.retry' } | { type: 'failure.dismiss' }): boolean;
  context: { lastDone: string | null; error: EditorError | null };
}

interface ReviewDecisionScreenProps {
  snapshot: ScreenSnapshot;
  send(event: { type: 'record.reload' } | { type: 'decision.retry' } | { type: 'failure.dismiss' }): void;
  /** The record's heading and summary. */
  title: ReactNode;
  /** 'hit', 'profile': for "Reload the hit" and "You may not review this hit." */
  noun: string;
  /** The decisions offered in idle (null when none is). */
  decide: ReactNode;
  /** The confirmation of the decision, drawn while confirming. */
  confirm: ReactNode;
}

/**
 * The review machine's screen for its stories, reduced to what the machine decides: its state, the
 * notice or error, the decisions offered, the confirmation, the busy line and the ways out of a
 * conflict or failure. Each review's stories give its own decisions and confirmation.
 */
export function ReviewDecisionScreen({ snapshot, send, title, noun, decide, confirm }: ReviewDecisionScreenProps) {
  const { lastDone, error } = snapshot.context;
  return (
    <section className="page" style={{ margin: '1rem' }}>
      {title}
      <p className="field__hint">
        Machine state: <strong>{JSON.stringify(snapshot.value)}</strong>
      </p>
      {lastDone ? <p className="notice" role="status">{lastDone}</p> : null}
      {error ? (
        <p className="notice notice--negative" role="alert">
          {error.message}
        </p>
      ) : null}
      {snapshot.matches('idle') ? (decide ?? <p>You may not review this {noun}.</p>) : null}
      {snapshot.matches('confirming') ? confirm : null}
      {snapshot.hasTag('busy') ? <p aria-busy="true">{snapshot.matches('reloading') ? `Reloading the ${noun}…` : 'Saving the decision…'}</p> : null}
      <div className="form__actions">
        {snapshot.can({ type: 'record.reload' }) ? (
          <button type="button" className="button button--primary" onClick={() => send({ type: 'record.reload' })}>
            Reload the {noun}
          </button>
        ) : null}
        {snapshot.can({ type: 'decision.retry' }) ? (
          <button type="button" className="button button--primary" onClick={() => send({ type: 'decision.retry' })}>
            Try again
          </button>
        ) : null}
        {snapshot.can({ type: 'failure.dismiss' }) ? (
          <button type="button" className="button button--secondary" onClick={() => send({ type: 'failure.dismiss' })}>
            Dismiss
          </button>
        ) : null}
      </div>
    </section>
  );
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Fake calls for the Interactive stories: a decision whose text contains "conflict" answers 409
 * (`conflict` is the server's message), "fail" a server error; any other answers `next` after a
 * moment, and a reload answers `reloaded`.
 */
export function storyCalls<R, Request extends { body: unknown }>(next: (request: Request) => R, reloaded: R, conflict: string): ReviewCalls<R, Request> {
  return {
    transition: async (request) => {
      await wait(600);
      const said = JSON.stringify(request.body ?? '');
      if (said.includes('conflict')) throw { status: 409, serverMessage: conflict };
      if (said.includes('fail')) throw { status: 500 };
      return next(request);
    },
    reload: async () => {
      await wait(600);
      return reloaded;
    },
  };
}
