import { useId, type ReactNode } from 'react';
import { get, useFormContext, type FieldError } from 'react-hook-form';

export interface FieldControl {
  id: string;
  describedBy: string | undefined;
  invalid: boolean;
}

/** The id and ARIA attributes a field's control carries (described by hint and error, invalid while in error). */
export const controlAttributes = (c: FieldControl, required?: boolean) => ({
  id: c.id,
  'aria-describedby': c.describedBy,
  'aria-invalid': c.invalid || undefined,
  'aria-required': required || undefined,
});

export interface FieldProps {
  /** The form value's path, e.g. `name` or `markers.0.name`. */
  name: string;
  label: string;
  hint?: string;
  required?: boolean;
}

/** The error react-hook-form holds for `name` (zod's message, e.g. "Required"). */
export function useFieldError(name: string): string | undefined {
  const { formState } = useFormContext();
  return (get(formState.errors, name) as FieldError | undefined)?.message;
}

/**
 * Label, control, hint and error of one form field, wired for screen readers: the control is
 * described by the hint and the error, and marked invalid while the error shows.
 */
export function Field({ name, label, hint, required, children }: FieldProps & { children(control: FieldControl): ReactNode }) {
  const id = useId();
  const error = useFieldError(name);
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
        {required ? <span aria-hidden="true"> *</span> : null}
      </label>
      {children({ id, describedBy, invalid: Boolean(error) })}
      {hint ? (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
