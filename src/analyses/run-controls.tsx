import type { ReactNode } from 'react';
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

interface RunFormProps {
  busy: boolean;
  /** What keeps Run from sending, once Run was pressed. */
  blockers: readonly string[];
  populationsFailed: boolean;
  onRun(): void;
  onCancel(): void;
  /** The choices. */
  children: ReactNode;
  /** Shown under Run (e.g. what a long run is doing). */
  footer?: ReactNode;
}

/** A calculator's form: the choices, the populations' failure, what keeps Run from sending, Run and Cancel. */
export function RunForm({ busy, blockers, populationsFailed, onRun, onCancel, children, footer }: RunFormProps) {
  return (
    <form
      className="calculator__form"
      aria-label="Analysis choices"
      onSubmit={(e) => {
        e.preventDefault();
        onRun();
      }}
    >
      <div className="calculator__choices">{children}</div>
      {populationsFailed ? (
        <p className="notice notice--negative" role="alert">
          The populations could not be read. Reload the page to try again.
        </p>
      ) : null}
      <RunBlockers blockers={blockers} />
      <RunButtons busy={busy} onCancel={onCancel} />
      {footer}
    </form>
  );
}
