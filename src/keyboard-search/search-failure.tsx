import type { EditorError } from '../../machines/recordEditor.machine';

/** Why the last keyboard search failed, with Try again (machines/keyboardSearch `retry`). */
export function SearchFailure({ error, onRetry }: { error: EditorError; onRetry(): void }) {
  return (
    <div className="notice notice--negative" role="alert">
      <p>The search failed: {error.message}</p>
      <button type="button" className="button button--secondary" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
