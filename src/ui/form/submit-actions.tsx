import type { ReactNode } from 'react';

/** A page form's end: its submit button (its label while busy), then any other buttons. */
export function SubmitActions({ busy, label, busyLabel, children }: { busy: boolean; label: string; busyLabel: string; children?: ReactNode }) {
  return (
    <div className="form__actions">
      <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy}>
        {busy ? busyLabel : label}
      </button>
      {children}
    </div>
  );
}
