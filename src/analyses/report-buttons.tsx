import { useState } from 'react';
import { toEditorError } from '../../machines/recordEditor.machine';
import type { ReportFormat } from './calculator-api';

/** Downloads the result the screen shows, by running the same request on the server as a PDF or CSV. */
export function ReportButtons({ report }: { report: (format: ReportFormat) => Promise<string> }) {
  const [busy, setBusy] = useState<ReportFormat | null>(null);
  const [message, setMessage] = useState<{ text: string; failed: boolean } | null>(null);
  const download = (format: ReportFormat) => {
    setBusy(format);
    setMessage(null);
    report(format).then(
      (name) => setMessage({ text: `Saved ${name}`, failed: false }),
      (err: unknown) => setMessage({ text: toEditorError(err).message, failed: true }),
    ).finally(() => setBusy(null));
  };
  return (
    <div className="form__actions">
      <button type="button" className="button button--secondary" disabled={busy !== null} onClick={() => download('pdf')}>
        {busy === 'pdf' ? 'Preparing PDF…' : 'Download PDF'}
      </button>
      <button type="button" className="button button--secondary" disabled={busy !== null} onClick={() => download('csv')}>
        {busy === 'csv' ? 'Preparing CSV…' : 'Download CSV'}
      </button>
      {message ? (
        <span className={message.failed ? 'field__error' : 'field__hint'} role={message.failed ? 'alert' : 'status'}>
          {message.text}
        </span>
      ) : null}
    </div>
  );
}
