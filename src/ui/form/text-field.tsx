import { useFormContext } from 'react-hook-form';
import { controlAttributes, Field, type FieldProps } from './field';

/** A single-line text input bound to the surrounding react-hook-form form. */
export function TextField(props: FieldProps & { type?: 'text' | 'email' | 'password' | 'number' | 'date' | 'time'; autoComplete?: string; disabled?: boolean }) {
  const { register } = useFormContext();
  const { type = 'text', autoComplete, disabled } = props;
  return (
    <Field {...props}>
      {(control) => (
        <input
          className="input"
          type={type}
          autoComplete={autoComplete ?? 'off'}
          disabled={disabled}
          {...controlAttributes(control, props.required)}
          {...register(props.name, type === 'number' ? { valueAsNumber: true } : undefined)}
        />
      )}
    </Field>
  );
}
