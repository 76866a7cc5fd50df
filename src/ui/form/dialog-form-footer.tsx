import { AlertNotice } from '../alert-notice';

/** The end of a form in a dialog: the server's refusal, if any, then Cancel and the submit button (its label while busy). */
export function DialogFormFooter({ failure, busy, onCancel, submitLabel, busyLabel }: { failure: string | null; busy: boolean; onCancel(): void; submitLabel: string; busyLabel: string }) {
  return (
    <>
      <AlertNotice text={failure} />
      <div className="dialog__actions">
        <button type="button" className="button button--secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? busyLabel : submitLabel}
        </button>
      </div>
    </>
  );
}
