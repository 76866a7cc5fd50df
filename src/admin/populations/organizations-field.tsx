import { useController } from 'react-hook-form';
import { useFieldError } from '../../ui/form/field';

interface OrganizationsFieldProps {
  options: readonly { id: string; name: string }[];
  disabled: boolean;
  hint?: string;
}

/**
 * The organizations a population is shared with, as a group of checkboxes bound to the form's
 * `organizationIds` (kept an array even with one option, which a plain registered checkbox is not).
 */
export function OrganizationsField({ options, disabled, hint }: OrganizationsFieldProps) {
  const { field } = useController<{ organizationIds: string[] }, 'organizationIds'>({ name: 'organizationIds' });
  const error = useFieldError('organizationIds');
  const chosen: string[] = field.value ?? [];
  const toggle = (id: string, on: boolean) => field.onChange(on ? [...chosen, id] : chosen.filter((c) => c !== id));
  return (
    <fieldset className="field organizations-field" aria-describedby={hint ? 'organizations-hint' : undefined}>
      <legend className="field__label">Organizations</legend>
      {options.length === 0 ? <p className="field__hint">No organizations.</p> : null}
      {options.map((o) => (
        <div className="field--checkbox" key={o.id}>
          <input id={`organization-${o.id}`} type="checkbox" checked={chosen.includes(o.id)} disabled={disabled} onChange={(e) => toggle(o.id, e.target.checked)} />
          <label htmlFor={`organization-${o.id}`}>{o.name}</label>
        </div>
      ))}
      {hint ? (
        <p className="field__hint" id="organizations-hint">
          {hint}
        </p>
      ) : null}
      {error ? <p className="field__error">{error}</p> : null}
    </fieldset>
  );
}
