import { useFormContext } from 'react-hook-form';
import { controlAttributes, Field, type FieldProps } from './field';

export interface SelectOption {
  value: string;
  label: string;
}

/**
 * A native select (keyboard and screen-reader friendly) bound to the surrounding form. With
 * `emptyIsNull`, the placeholder is a real choice whose value is null (an optional reference).
 */
export function SelectField(props: FieldProps & { options: readonly SelectOption[]; placeholder?: string; disabled?: boolean; emptyIsNull?: boolean }) {
  const { register } = useFormContext();
  return (
    <Field {...props}>
      {(control) => (
        <select
          className="input"
          disabled={props.disabled}
          {...controlAttributes(control, props.required)}
          {...register(props.name, props.emptyIsNull ? { setValueAs: (v: unknown) => (v === '' ? null : v) } : {})}
        >
          {props.placeholder !== undefined ? <option value="">{props.placeholder}</option> : null}
          {props.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
