import { useEffect, useRef } from 'react';
import { useController, useWatch } from 'react-hook-form';
import type { CaseInput } from '../../core/schemas/cases';
import { useFieldError } from '../ui/form/field';

interface AssignedUsersFieldProps {
  /** The users who may work on a case of `usersOf` (its members and users with scope All). */
  users: readonly { id: string; name: string; email: string }[];
  /** The organization `users` were read for; another one is being read while it differs from the chosen one. */
  usersOf: string | null;
  /** Told when the chosen organization changes, so its users are read. */
  onOrganizationChange(organizationId: string): void;
}

/**
 * The users assigned to the case, as checkboxes bound to `assignedUserIds`. Only users of the
 * case's organization may be assigned (server/http/cases/case-rules.ts), so choosing another
 * organization reads its users and keeps only those of the chosen ones who still qualify.
 */
export function AssignedUsersField({ users, usersOf, onOrganizationChange }: AssignedUsersFieldProps) {
  const organizationId = useWatch<CaseInput, 'organizationId'>({ name: 'organizationId' });
  const { field } = useController<CaseInput, 'assignedUserIds'>({ name: 'assignedUserIds' });
  const error = useFieldError('assignedUserIds');
  const chosen: string[] = field.value ?? [];
  // The organization the current choice was made in.
  const choiceOf = useRef(organizationId);

  useEffect(() => onOrganizationChange(organizationId), [organizationId]);
  useEffect(() => {
    if (!usersOf || usersOf !== organizationId || choiceOf.current === organizationId) return;
    choiceOf.current = organizationId;
    const eligible = new Set(users.map((u) => u.id));
    field.onChange(chosen.filter((id) => eligible.has(id)));
  }, [users, usersOf, organizationId]);

  const toggle = (id: string, on: boolean) => field.onChange(on ? [...chosen, id] : chosen.filter((c) => c !== id));
  const reading = Boolean(organizationId) && usersOf !== organizationId;
  return (
    <fieldset className="field case-form__users" aria-busy={reading}>
      <legend className="field__label">Assigned users</legend>
      {!organizationId ? (
        <p className="field__hint">Choose the organization first.</p>
      ) : reading ? (
        <p className="field__hint" role="status">
          Loading users…
        </p>
      ) : users.length === 0 ? (
        <p className="field__hint">No users work for this organization.</p>
      ) : (
        <ul>
          {users.map((u) => (
            <li className="field--checkbox" key={u.id}>
              <input id={`assigned-${u.id}`} type="checkbox" checked={chosen.includes(u.id)} onChange={(e) => toggle(u.id, e.target.checked)} />
              <label htmlFor={`assigned-${u.id}`}>
                {u.name} <span className="case-form__email">({u.email})</span>
              </label>
            </li>
          ))}
        </ul>
      )}
      {error ? <p className="field__error">{error}</p> : null}
    </fieldset>
  );
}
