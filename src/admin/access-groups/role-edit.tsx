import { useId, useMemo } from 'react';
import { useController, useWatch } from 'react-hook-form';
import { can } from '../../../core/permissions';
import { AccessGroupInput, type AccessGroup } from '../../../core/schemas/access-groups';
import { useApi } from '../../app/api-provider';
import { routes } from '../../app/routes';
import { CheckboxField } from '../../ui/form/checkbox-field';
import { TextField } from '../../ui/form/text-field';
import { EditorPage } from '../../ui/record/editor-page';
import { RecordForm } from '../../ui/record/record-form';
import { usePrincipal } from '../../app/use-principal';
import { useRecordEditor } from '../../ui/record/use-record-editor';
import { accessGroupsApi } from './access-groups-api';
import { PermissionMatrix } from './permission-matrix';

export const ADMIN_ROLE_NOTE =
  'Administrators pass every permission check (within their scope), so this matrix is kept but not used while Admin is checked.';

/** The matrix bound to the form's `permissions`, with the note that an administrator role ignores it. */
function PermissionsField({ disabled }: { disabled: boolean }) {
  const legendId = useId();
  const { field } = useController<AccessGroupInput, 'permissions'>({ name: 'permissions' });
  const isAdmin = useWatch<AccessGroupInput, 'isAdmin'>({ name: 'isAdmin' });
  return (
    <fieldset className="role-form__permissions">
      <legend id={legendId}>Permissions</legend>
      {isAdmin ? (
        <p className="notice role-form__admin-note" role="note">
          {ADMIN_ROLE_NOTE}
        </p>
      ) : null}
      <PermissionMatrix value={field.value ?? {}} onChange={field.onChange} disabled={disabled} labelledBy={legendId} />
    </fieldset>
  );
}

/** Add or change a role: Name, Admin and the permission matrix; delete it when no user has it. */
export function RoleEdit({ orgId, id }: { orgId: string; id: string }) {
  const api = useApi();
  const principal = usePrincipal();
  const calls = useMemo(() => accessGroupsApi(api), [api]);
  const editor = useRecordEditor<AccessGroup, AccessGroupInput>(id, {
    load: calls.get,
    save: ({ id: existing, record, values }) => (existing && record ? calls.update(existing, { ...values, version: record.version }) : calls.add(values)),
    remove: ({ id: existing }) => calls.remove(existing),
  });
  const tableHref = routes.AccessGroups.href({ orgId });
  const source = editor.draft ?? editor.record;
  const values = useMemo<AccessGroupInput>(
    () => ({ name: source?.name ?? '', isAdmin: source?.isAdmin ?? false, permissions: source?.permissions ?? {} }),
    [editor.record],
  );
  const mayEdit = can(principal, 'AccessGroups', editor.isNew ? 'Add' : 'Edit');
  return (
    <EditorPage title={editor.isNew ? 'New role' : 'Role'} editor={editor} doneHref={tableHref} deleteWhat={(r) => `role "${r.name}"`}>
      <RecordForm
        schema={AccessGroupInput}
        values={values}
        onSubmit={editor.save}
        busy={editor.status === 'saving'}
        cancelHref={tableHref}
        readOnly={!mayEdit}
        onDelete={!editor.isNew && can(principal, 'AccessGroups', 'Delete') ? editor.askDelete : undefined}
      >
        <TextField name="name" label="Name" required />
        <CheckboxField name="isAdmin" label="Admin" />
        <PermissionsField disabled={!mayEdit} />
      </RecordForm>
    </EditorPage>
  );
}
