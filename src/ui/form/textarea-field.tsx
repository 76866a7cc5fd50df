import { useFormContext } from 'react-hook-form';
import { controlAttributes, Field, type FieldProps } from './field';

/** A multi-line text input bound to the surrounding react-hook-form form. */
export function TextareaField(props: FieldProps & { rows?: number }) {
  const { register } = useFormContext();
  return (
    <Field {...props}>
      {(control) => (
        <textarea
          className="input input--multiline"
          rows={props.rows ?? 8}
          {...controlAttributes(control, props.required)}
          {...register(props.name)}
        />
      )}
    </Field>
  );
}
