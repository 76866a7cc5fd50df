import { useFormContext } from 'react-hook-form';
import { controlAttributes, Field, type FieldProps } from '../ui/form/field';

/** An optional calendar date (YYYY-MM-DD); left empty it is null. */
export function DueDateField(props: FieldProps) {
  const { register } = useFormContext();
  return (
    <Field {...props}>
      {(control) => <input className="input" type="date" {...controlAttributes(control, props.required)} {...register(props.name, { setValueAs: (v: unknown) => (v === '' || v == null ? null : v) })} />}
    </Field>
  );
}
