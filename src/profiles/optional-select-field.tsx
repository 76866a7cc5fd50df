import { useFormContext } from 'react-hook-form';
import { controlAttributes, Field, type FieldProps } from '../ui/form/field';
import type { SelectOption } from '../ui/form/select-field';

/** A select whose first choice, `noneLabel`, is the value null (a profile's source, item or laboratory may be left out). */
export function OptionalSelectField(props: FieldProps & { options: readonly SelectOption[]; noneLabel: string; disabled?: boolean }) {
  const { register } = useFormContext();
  return (
    <Field {...props}>
      {(control) => (
        <select
          className="input"
          disabled={props.disabled}
          {...controlAttributes(control, props.required)}
          {...register(props.name, { setValueAs: (v: unknown) => (v === '' ? null : v) })}
        >
          <option value="">{props.noneLabel}</option>
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
