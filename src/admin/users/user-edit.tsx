import { useMemo } from 'react';
import { ALL_ORGANIZATIONS, can, canAssignOrganizations, canSeeAdminUserOptions } from '../../../core/permissions';
import type { Me } from '../../../core/schemas/me';
import { UserInput, type UserRecord } from '../../../core/schemas/users';
import { useApi } from '../../app/api-provider';
import { routes } from '../../app/routes';
import { useShellSession } from '../../app/shell-session';
import { CheckboxField } from '../../ui/form/checkbox-field';
import { SelectField } from '../../ui/form/select-field';
import { TextField } from '../../ui/form/text-field';
import { EditorPage } from '../../ui/record/editor-page';
import { RecordForm } from '../../ui/record/record-form';
import { usePrincipal } from '../../app/use-principal';
import { useRecordEditor } from '../../ui/record/use-record-editor';
import { OrganizationsField } from './organizations-field';
import { PasswordActions } from './password-actions';
import { RoleField } from './role-field';
import { useFormOptions } from './use-form-options';
import { usersApi } from './users-api';
import './users.css';

/**
 * The form's starting values. A new user starts in the organization being viewed (or, at `all`,
 * in the signed-in user's own organizations), so that whoever adds them can see them afterwards.
 */
function formValues(source: UserInput | UserRecord | null, orgId: string, me: Me): UserInput {
  if (source && 'id' in source) {
    return {
      email: source.email,
      firstName: source.firstName,
      lastName: source.lastName,
      // Empty until chosen: the select shows its placeholder and the schema says Required.
      scope: source.scope ?? ('' as UserInput['scope']),
      organizationIds: source.organizations.map((o) => o.id),
      accessGroupId: source.role?.id ?? null,
      lockedOut: source.lockedOut,
      receiveNotifications: source.receiveNotifications,
    };
  }
  if (source) return source;
  return {
    email: '',
    firstName: '',
    lastName: '',
    scope: '' as UserInput['scope'],
    organizationIds: orgId === ALL_ORGANIZATIONS ? me.organizations.map((o) => o.id) : [orgId],
    accessGroupId: null,
    lockedOut: false,
    receiveNotifications: false,
  };
}

/** Add or change a user (spec 2.7, 3, 6); which fields show depends on the signed-in user's rights. */
export function UserEdit({ orgId, id }: { orgId: string; id: string }) {
  const api = useApi();
  const { me } = useShellSession();
  const principal = usePrincipal();
  const calls = useMemo(() => usersApi(api), [api]);
  const options = useFormOptions(calls);
  const editor = useRecordEditor<UserRecord, UserInput>(id, {
    load: calls.get,
    save: ({ id: existing, record, values }) => (existing && record ? calls.update(existing, { ...values, version: record.version }) : calls.add(values)),
    remove: ({ id: existing }) => calls.remove(existing),
  });
  const tableHref = routes.Users.href({ orgId });
  const values = useMemo(() => formValues(editor.draft ?? editor.record, orgId, me), [editor.record]);
  const isSelf = editor.record?.id === me.id;
  const isAdmin = canSeeAdminUserOptions(principal);
  const isAdminAll = principal.isAdmin && principal.scope === 'All';
  // A user with scope All is out of reach of anyone whose scope is narrower, down to their e-mail (the server refuses it).
  const outranked = editor.record?.scope === 'All' && principal.scope !== 'All';
  // Role, scope, lockout and password of a user with scope All stay with administrators with scope All (the server refuses others).
  const controlsAccount = editor.record?.scope !== 'All' || isAdminAll;
  const scopeOptions = [
    // Only an administrator with scope All may give scope All (spec 6); others still see it on a user who has it.
    ...(isAdminAll || editor.record?.scope === 'All' ? [{ value: 'All', label: 'All' }] : []),
    { value: 'Organization', label: 'Organization' },
  ];
  return (
    <EditorPage title={editor.isNew ? 'New user' : 'User'} editor={editor} doneHref={tableHref} deleteWhat={(r) => `user ${r.email}`}>
      {options === 'failed' ? (
        <p className="notice notice--negative" role="alert">
          The roles and organizations for this form could not be loaded. Reload the page to try again.
        </p>
      ) : options ? (
        <>
          {outranked ? (
            <p className="notice" role="note">
              Only a user with scope All may change a user with scope All, lock them out, delete them or set their password.
            </p>
          ) : null}
          <RecordForm
            schema={UserInput}
            values={values}
            onSubmit={editor.save}
            busy={editor.status === 'saving'}
            cancelHref={tableHref}
            readOnly={outranked || !can(principal, 'Users', editor.isNew ? 'Add' : 'Edit')}
            onDelete={!editor.isNew && !isSelf && !outranked && can(principal, 'Users', 'Delete') ? editor.askDelete : undefined}
          >
            <TextField name="email" label="Email" type="email" autoComplete="off" required />
            <TextField name="firstName" label="First Name" />
            <TextField name="lastName" label="Last Name" />
            <SelectField name="scope" label="Scope" required placeholder="Choose a scope" options={scopeOptions} disabled={!controlsAccount} />
            {canAssignOrganizations(principal) ? <OrganizationsField options={options.organizations} /> : null}
            {isAdmin ? (
              <>
                <RoleField roles={options.roles} disabled={!controlsAccount} />
                <CheckboxField
                  name="lockedOut"
                  label="Locked out"
                  hint={isSelf ? 'You cannot lock yourself out.' : 'A locked-out user cannot sign in, and their open sessions end.'}
                  disabled={isSelf || !controlsAccount}
                />
                <CheckboxField name="receiveNotifications" label="Receive notifications" />
              </>
            ) : null}
          </RecordForm>
          {isAdmin && controlsAccount && !outranked && options.passwordsManagedHere && editor.record ? <PasswordActions user={editor.record} calls={calls} /> : null}
        </>
      ) : (
        <p role="status" aria-busy="true">
          Loading…
        </p>
      )}
    </EditorPage>
  );
}
