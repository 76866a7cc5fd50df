import { useId } from 'react';

interface TextBoxProps {
  label: string;
  value: string;
  hint?: string;
  error: string | undefined;
  /** `decimal` for probabilities (a half-typed "0." stays on screen), `numeric` for whole numbers. */
  inputMode: 'decimal' | 'numeric';
  onChange(value: string): void;
}

/** A number typed as text, with its hint and, when wrong, its message beside it (read as its description). */
export function TextBox({ label, value, hint, error, inputMode, onChange }: TextBoxProps) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input id={id} className="input" type="text" inputMode={inputMode} autoComplete="off" value={value} aria-invalid={error ? true : undefined} aria-describedby={describedBy} onChange={(e) => onChange(e.target.value)} />
      {hint ? (
        <p className="field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field__error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A field's message under a group of inputs (a fieldset, a picker). */
export const FieldError = ({ error }: { error: string | undefined }) => (error ? <p className="field__error">{error}</p> : null);
