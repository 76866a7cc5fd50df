import { useId } from 'react';
import { CITATION_FILE_ACCEPT, citationFileExtension, refusedFileTypeMessage } from '../../../core/schemas/citations';

/** Why `file` cannot be attached, judged by its name; the server also checks its content. */
export const fileProblem = (file: File | null): string | undefined =>
  file && !citationFileExtension(file.name) ? refusedFileTypeMessage(file.name) : undefined;

/** The citation's file chooser: documents only (`accept`), with the refusal shown under it. */
export function FileInput({ label, file, onChange, disabled }: { label: string; file: File | null; onChange(file: File | null): void; disabled?: boolean }) {
  const id = useId();
  const error = fileProblem(file);
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        type="file"
        className="input"
        accept={CITATION_FILE_ACCEPT}
        disabled={disabled}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
        aria-invalid={error ? true : undefined}
        onChange={(e) => onChange(e.target.files?.[0] ?? null)}
      />
      <p className="field__hint" id={`${id}-hint`}>
        A document: PDF, Word, OpenDocument, RTF, text, spreadsheet or presentation.
      </p>
      {error ? (
        <p className="field__error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
