import type { EditorError } from '../../machines/recordEditor.machine';

/** What keeps Run from sending (machines/analysisRun `runBlockers`), shown after Run was pressed. */
export function RunBlockers({ blockers }: { blockers: readonly string[] }) {
  if (blockers.length === 0) return null;
  return (
    <div className="notice notice--warning" role="alert">
      <ul>
        {blockers.map((b) => (
          <li key={b}>{b}</li>
        ))}
      </ul>
    </div>
  );
}

/** Run, and Cancel while the analysis runs. `onRun` is left out when Run submits the surrounding form. */
export function RunButtons({ busy, onRun, onCancel }: { busy: boolean; onRun?: () => void; onCancel(): void }) {
  return (
    <div className="form__actions">
      <button type={onRun ? 'button' : 'submit'} className="button button--primary" disabled={busy} onClick={onRun}>
        {busy ? 'Running…' : 'Run'}
      </button>
      {busy ? (
        <button type="button" className="button button--secondary" onClick={onCancel}>
          Cancel
        </button>
      ) : null}
    </div>
  );
}

/** A failed run: the server's message, Try again and Dismiss. */
export function RunFailure({ error, onRetry, onDismiss }: { error: EditorError; onRetry(): void; onDismiss(): void }) {
  return (
    <div className="notice notice--negative" role="alert">
      <p>{error.message}</p>
      <div className="form__actions">
        <button type="button" className="button button--secondary" onClick={onRetry}>
          Try again
        </button>
        <button type="button" className="button button--secondary" onClick={onDismiss}>
          Dismiss
        </button>
      </div>
    </div>
  );
}
