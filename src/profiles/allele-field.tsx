import type { ClipboardEventHandler } from 'react';

interface AlleleFieldProps {
  id: string;
  marker: string;
  value: string;
  /** What is wrong with the typed alleles (shown under the field, and announced with it). */
  messages: readonly string[];
  onChange(value: string): void;
  onBlur(): void;
  onPaste?: ClipboardEventHandler<HTMLInputElement>;
}

/** One marker's alleles as typed (e.g. "14, 16"), with its errors: the profile marker entry and the keyboard search's grid. */
export function AlleleField({ id, marker, value, messages, onChange, onBlur, onPaste }: AlleleFieldProps) {
  const invalid = messages.length > 0;
  return (
    <div className={`marker-entry__row${invalid ? ' field--invalid' : ''}`}>
      <label className="marker-entry__name" htmlFor={id}>
        {marker}
      </label>
      <input
        id={id}
        className="input marker-entry__alleles"
        value={value}
        autoComplete="off"
        spellCheck={false}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onBlur}
        onPaste={onPaste}
      />
      {invalid ? (
        <p className="field__error marker-entry__error" id={`${id}-error`}>
          {messages.join(' ')}
        </p>
      ) : null}
    </div>
  );
}
