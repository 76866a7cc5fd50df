import { useFormContext } from 'react-hook-form';
import { controlAttributes, Field } from './field';

/** Empty (or not a number) reads as null: an optional figure such as a threshold. */
const numberOrNull = (v: unknown) => (v === '' || v === null || v === undefined || Number.isNaN(v) ? null : Number(v));

/** A number input whose empty value means null (the analysis's own threshold, no rarity threshold, …). */
export function OptionalNumberField({ name, label, hint, min = 0 }: { name: string; label: string; hint: string; min?: number }) {
  const { register } = useFormContext();
  return (
    <Field name={name} label={label} hint={hint}>
      {(control) => <input className="input" type="number" min={min} step="any" {...controlAttributes(control)} {...register(name, { setValueAs: numberOrNull })} />}
    </Field>
  );
}
