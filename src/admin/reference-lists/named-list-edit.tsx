import { useMemo } from 'react';
import { can } from '../../../core/permissions';
import { NamedRecordInput, type NamedRecord } from '../../../core/schemas/named-record';
import { useApi } from '../../app/api-provider';
import { routes } from '../../app/routes';
import { TextField } from '../../ui/form/text-field';
import { EditorPage } from '../../ui/record/editor-page';
import { RecordForm } from '../../ui/record/record-form';
import { usePrincipal } from '../../app/use-principal';
import { useRecordEditor } from '../../ui/record/use-record-editor';
import { FourEyesSetting } from '../organizations/four-eyes-setting';
import { VerbalScaleSetting } from '../organizations/verbal-scale-setting';
import { namedListApi } from './named-list-api';
import type { NamedList } from './lists';

/** Add or rename a record of a name-only list; delete it when nothing uses it. An organization shows its review and report settings too. */
export function NamedListEdit({ list, orgId, id }: { list: NamedList; orgId: string; id: string }) {
  const api = useApi();
  const principal = usePrincipal();
  const calls = useMemo(() => namedListApi(api, list), [api, list]);
  const editor = useRecordEditor<NamedRecord, NamedRecordInput>(id, {
    load: calls.get,
    save: ({ id: existing, record, values }) => (existing && record ? calls.update(existing, { ...values, version: record.version }) : calls.add(values)),
    remove: ({ id: existing }) => calls.remove(existing),
  });
  const tableHref = routes[list.table].href({ orgId });
  const values = useMemo(() => ({ name: editor.draft?.name ?? editor.record?.name ?? '' }), [editor.record]);
  const mayEdit = can(principal, list.entity, editor.isNew ? 'Add' : 'Edit');
  return (
    <EditorPage title={editor.isNew ? `New ${list.what}` : list.title} editor={editor} doneHref={tableHref} deleteWhat={(r) => `${list.what} "${r.name}"`}>
      <RecordForm
        schema={NamedRecordInput}
        values={values}
        onSubmit={editor.save}
        busy={editor.status === 'saving'}
        cancelHref={tableHref}
        readOnly={!mayEdit}
        onDelete={!editor.isNew && can(principal, list.entity, 'Delete') ? editor.askDelete : undefined}
      >
        <TextField name="name" label="Name" required />
      </RecordForm>
      {list.entity === 'Organizations' && !editor.isNew ? <FourEyesSetting organizationId={id} mayEdit={can(principal, 'Organizations', 'Edit', { orgId: id })} /> : null}
      {list.entity === 'Organizations' && !editor.isNew ? <VerbalScaleSetting organizationId={id} mayEdit={can(principal, 'Organizations', 'Edit', { orgId: id })} /> : null}
    </EditorPage>
  );
}
