import { useController } from 'react-hook-form';
import { useFieldError } from '../../ui/form/field';

/** The form's `isExclusion` for an exclusion analysis: the pattern is an Exclusion or a Non Exclusion (spec 2.5). */
export function ExclusionField() {
  const { field } = useController({ name: 'isExclusion' });
  const error = useFieldError('isExclusion');
  const choice = (value: boolean, label: string) => (
    <label className="field--checkbox">
      <input type="radio" name={field.name} checked={field.value === value} onChange={() => field.onChange(value)} onBlur={field.onBlur} />
      {label}
    </label>
  );
  return (
    <fieldset className={`field${error ? ' field--invalid' : ''}`} aria-invalid={error ? true : undefined}>
      <legend className="field__label">
        Information<span aria-hidden="true"> *</span>
      </legend>
      {choice(true, 'Exclusion')}
      {choice(false, 'Non Exclusion')}
      {error ? <p className="field__error">{error}</p> : null}
    </fieldset>
  );
}
