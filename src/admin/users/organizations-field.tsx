import { useController } from 'react-hook-form';
import type { UserInput } from '../../../core/schemas/users';

/** The organizations a user belongs to, as one checkbox per organization (spec 6: Users Edit with scope All). */
export function OrganizationsField({ options }: { options: readonly { id: string; name: string }[] }) {
  const { field } = useController<UserInput, 'organizationIds'>({ name: 'organizationIds' });
  const selected = field.value ?? [];
  const toggle = (id: string) => field.onChange(selected.includes(id) ? selected.filter((x) => x !== id) : [...selected, id]);
  return (
    <fieldset className="user-form__organizations">
      <legend>Organizations</legend>
      {options.length === 0 ? (
        <p className="field__hint">There are no organizations yet.</p>
      ) : (
        <ul>
          {options.map((org) => (
            <li key={org.id} className="field--checkbox">
              <input id={`organization-${org.id}`} type="checkbox" checked={selected.includes(org.id)} onChange={() => toggle(org.id)} />
              <label htmlFor={`organization-${org.id}`}>{org.name}</label>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
