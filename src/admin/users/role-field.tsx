import { useFormContext } from 'react-hook-form';
import type { UserFormOptions } from '../../../core/schemas/users';
import { controlAttributes, Field } from '../../ui/form/field';

/** The user's role (administrators only, spec 6); "No role" is null, and such a user cannot sign in. */
export function RoleField({ roles, disabled = false }: { roles: UserFormOptions['roles']; disabled?: boolean }) {
  const { register } = useFormContext();
  return (
    <Field name="accessGroupId" label="Role" hint="Without a role the user cannot sign in.">
      {(control) => (
        <select className="input" disabled={disabled} {...controlAttributes(control)} {...register('accessGroupId', { setValueAs: (v: unknown) => (v === '' ? null : v) })}>
          <option value="">No role</option>
          {roles.map((role) => (
            <option key={role.id} value={role.id}>
              {role.isAdmin ? `${role.name} (administrator)` : role.name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
