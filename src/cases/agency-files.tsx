import { useEffect, useId, useState } from 'react';
import { MAX_AGENCY_FILE_BYTES, type AgencyFile } from '../../core/schemas/cases';
import { toEditorError } from '../../machines/recordEditor.machine';
import { formatFileSize } from '../ui/file-size';
import { ConfirmDialog } from '../ui/confirm-dialog';
import type { AgencyFileCalls } from './agency-files-api';
import { formatDateTime } from './format';

type Listing = { status: 'loading' } | { status: 'failed' } | { status: 'loaded'; files: AgencyFile[] };

/** The agency files of a case (spec 3 Case agencyFiles): listed newest first, uploaded, downloaded and deleted here. */
export function AgencyFiles({ caseId, calls, mayChange }: { caseId: string; calls: AgencyFileCalls; mayChange: boolean }) {
  const inputId = useId();
  const [listing, setListing] = useState<Listing>({ status: 'loading' });
  const [chosen, setChosen] = useState<File | null>(null);
  // Changing it clears the file input after an upload.
  const [inputKey, setInputKey] = useState(0);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ negative: boolean; text: string } | null>(null);
  const [deleting, setDeleting] = useState<AgencyFile | null>(null);

  useEffect(() => {
    let current = true;
    calls.list(caseId).then(
      (files) => current && setListing({ status: 'loaded', files }),
      () => current && setListing({ status: 'failed' }),
    );
    return () => {
      current = false;
    };
  }, [calls, caseId]);

  const files = listing.status === 'loaded' ? listing.files : [];
  const tooLarge = chosen !== null && chosen.size > MAX_AGENCY_FILE_BYTES;

  /** Runs one call, showing its outcome; the API client has already told the user of a failure (spec 8.1). */
  const act = async (call: () => Promise<string>) => {
    setBusy(true);
    setMessage(null);
    try {
      setMessage({ negative: false, text: await call() });
    } catch (err) {
      setMessage({ negative: true, text: toEditorError(err).message });
    } finally {
      setBusy(false);
    }
  };
  const upload = () =>
    act(async () => {
      const file = await calls.upload(caseId, chosen!);
      setListing({ status: 'loaded', files: [file, ...files] });
      setChosen(null);
      setInputKey((k) => k + 1);
      return `Uploaded ${file.fileName}.`;
    });
  const download = (file: AgencyFile) => act(async () => `Downloaded ${await calls.download(caseId, file)}.`);
  const remove = (file: AgencyFile) =>
    act(async () => {
      await calls.remove(caseId, file.id);
      setListing({ status: 'loaded', files: files.filter((f) => f.id !== file.id) });
      return `Deleted ${file.fileName}.`;
    }).finally(() => setDeleting(null));

  return (
    <section className="agency-files" aria-labelledby="agency-files-title">
      <h2 id="agency-files-title">Agency files</h2>
      {message ? (
        <p className={`notice${message.negative ? ' notice--negative' : ''}`} role={message.negative ? 'alert' : 'status'}>
          {message.text}
        </p>
      ) : null}
      {listing.status === 'loading' ? (
        <p role="status" aria-busy="true">
          Loading…
        </p>
      ) : listing.status === 'failed' ? (
        <p className="notice notice--negative" role="alert">
          The agency files could not be loaded.
        </p>
      ) : files.length === 0 ? (
        <p>No agency files yet.</p>
      ) : (
        <table className="agency-files__table">
          <caption className="visually-hidden">Agency files</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Size</th>
              <th scope="col">Uploaded by</th>
              <th scope="col">Date</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {files.map((file) => (
              <tr key={file.id}>
                <th scope="row">{file.fileName}</th>
                <td>{formatFileSize(file.fileSize)}</td>
                <td>{file.uploadedBy ?? 'n/a'}</td>
                <td>{formatDateTime(file.uploadedAt)}</td>
                <td className="agency-files__actions">
                  <button type="button" className="button button--secondary" disabled={busy} onClick={() => download(file)} aria-label={`Download ${file.fileName}`}>
                    Download
                  </button>
                  {mayChange ? (
                    <button type="button" className="button button--danger" disabled={busy} onClick={() => setDeleting(file)} aria-label={`Delete ${file.fileName}`}>
                      Delete
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {mayChange ? (
        <div className="agency-files__upload">
          <div className={`field${tooLarge ? ' field--invalid' : ''}`}>
            <label className="field__label" htmlFor={inputId}>
              Agency file
            </label>
            <input
              key={inputKey}
              id={inputId}
              type="file"
              className="input"
              disabled={busy}
              aria-invalid={tooLarge || undefined}
              aria-describedby={tooLarge ? `${inputId}-error` : undefined}
              onChange={(e) => setChosen(e.target.files?.[0] ?? null)}
            />
            {tooLarge ? (
              <p className="field__error" id={`${inputId}-error`}>
                The file is larger than {formatFileSize(MAX_AGENCY_FILE_BYTES)}.
              </p>
            ) : null}
          </div>
          <button type="button" className="button button--primary" disabled={busy || !chosen || tooLarge} onClick={upload}>
            Upload
          </button>
        </div>
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete?"
        confirmLabel="Delete"
        busy={busy}
        onConfirm={() => deleting && remove(deleting)}
        onCancel={() => setDeleting(null)}
      >
        <p>Delete agency file {deleting?.fileName}? This cannot be undone.</p>
      </ConfirmDialog>
    </section>
  );
}
