import { useId } from 'react';
import { useFormContext } from 'react-hook-form';

/** A labelled checkbox bound to a boolean form value. */
export function CheckboxField({ name, label, hint, disabled }: { name: string; label: string; hint?: string; disabled?: boolean }) {
  const { register } = useFormContext();
  const id = useId();
  return (
    <div className="field field--checkbox">
      <input id={id} type="checkbox" disabled={disabled} aria-describedby={hint ? `${id}-hint` : undefined} {...register(name)} />
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p className="field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}
