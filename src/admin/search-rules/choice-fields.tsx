import { useId, type ReactNode } from 'react';
import { useController } from 'react-hook-form';
import { useFieldError } from '../../ui/form/field';

export interface Choice {
  value: string;
  label: string;
  /** Cannot be chosen (it may still be unchosen, so a value the rules refuse can be taken back). */
  disabled?: boolean;
  /** Said beside the choice, e.g. why it is disabled. */
  note?: string;
}

interface ChoiceGroupProps {
  name: string;
  legend: string;
  hint?: ReactNode;
  required?: boolean;
  children: ReactNode;
  className?: string;
}

/** A fieldset with a legend, hint and the field's error (the zod message or the server's). */
function ChoiceGroup({ name, legend, hint, required, children, className = '' }: ChoiceGroupProps) {
  const id = useId();
  const error = useFieldError(name);
  const errorId = error ? `${id}-error` : undefined;
  return (
    <fieldset className={`field choice-group ${className}${error ? ' field--invalid' : ''}`} aria-describedby={[hint ? `${id}-hint` : '', errorId ?? ''].join(' ').trim() || undefined}>
      <legend className="field__label">
        {legend}
        {required ? <span aria-hidden="true"> *</span> : null}
      </legend>
      {children}
      {hint ? (
        <p className="field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** Several values of a list (sample types, populations) as checkboxes, kept in the order they were chosen. */
export function MultiChoiceField({ name, legend, hint, required, choices }: Omit<ChoiceGroupProps, 'children' | 'className'> & { choices: readonly Choice[] }) {
  const { field } = useController({ name });
  const chosen: string[] = (field.value as string[] | undefined) ?? [];
  const id = useId();
  const toggle = (value: string, on: boolean) => field.onChange(on ? [...chosen, value] : chosen.filter((c) => c !== value));
  return (
    <ChoiceGroup name={name} legend={legend} hint={hint} required={required}>
      <div className="choice-group__options">
        {choices.map((c, i) => {
          const checked = chosen.includes(c.value);
          return (
            <div className="field--checkbox" key={c.value}>
              <input
                id={`${id}-${i}`}
                type="checkbox"
                checked={checked}
                disabled={c.disabled && !checked}
                aria-describedby={c.note ? `${id}-${i}-note` : undefined}
                onChange={(e) => toggle(c.value, e.target.checked)}
                onBlur={field.onBlur}
              />
              <label htmlFor={`${id}-${i}`}>{c.label}</label>
              {c.note ? (
                <p className="choice-group__note" id={`${id}-${i}-note`}>
                  {c.note}
                </p>
              ) : null}
            </div>
          );
        })}
      </div>
    </ChoiceGroup>
  );
}

/** One value of a few (when a rule runs) as radio buttons. */
export function RadioChoiceField({ name, legend, hint, required, choices }: Omit<ChoiceGroupProps, 'children' | 'className'> & { choices: readonly Choice[] }) {
  const { field } = useController({ name });
  const id = useId();
  return (
    <ChoiceGroup name={name} legend={legend} hint={hint} required={required} className="choice-group--inline">
      <div className="choice-group__options">
        {choices.map((c, i) => (
          <div className="field--checkbox" key={c.value}>
            <input id={`${id}-${i}`} type="radio" name={`${id}-${name}`} value={c.value} checked={field.value === c.value} onChange={() => field.onChange(c.value)} onBlur={field.onBlur} />
            <label htmlFor={`${id}-${i}`}>{c.label}</label>
          </div>
        ))}
      </div>
    </ChoiceGroup>
  );
}
