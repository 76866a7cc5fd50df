import { useMemo } from 'react';
import { can } from '../../../core/permissions';
import { ChemistryInput, type Chemistry } from '../../../core/schemas/chemistries';
import { useApi } from '../../app/api-provider';
import { routes } from '../../app/routes';
import { TextField } from '../../ui/form/text-field';
import { EditorPage } from '../../ui/record/editor-page';
import { RecordForm } from '../../ui/record/record-form';
import { usePrincipal } from '../../app/use-principal';
import { useRecordEditor } from '../../ui/record/use-record-editor';
import { chemistryApi } from './chemistry-api';
import { KitThresholds } from './kit-thresholds';
import type { ChemistryScreens } from './chemistry-kinds';
import { MarkerOrderField } from './marker-order-field';
import { useMarkerChoices } from './use-marker-choices';

/** Add or change a chemistry of one kind: its name and its ordered marker configuration (spec 2.7). */
export function ChemistryEdit({ screens, orgId, id }: { screens: ChemistryScreens; orgId: string; id: string }) {
  const api = useApi();
  const principal = usePrincipal();
  const calls = useMemo(() => chemistryApi(api, screens), [api, screens]);
  const editor = useRecordEditor<Chemistry, ChemistryInput>(id, {
    load: calls.get,
    save: ({ id: existing, record, values }) => (existing && record ? calls.update(existing, { ...values, version: record.version }) : calls.add(values)),
    remove: ({ id: existing }) => calls.remove(existing),
  });
  const mayEdit = can(principal, screens.entity, editor.isNew ? 'Add' : 'Edit');
  const choices = useMarkerChoices(screens.markerKind, mayEdit);
  const known = useMemo(() => new Map([...(editor.record?.markers ?? []), ...choices].map((m) => [m.id, m])), [editor.record, choices]);
  const tableHref = routes[screens.table].href({ orgId });
  const values = useMemo(
    (): ChemistryInput => ({
      name: editor.draft?.name ?? editor.record?.name ?? '',
      markerIds: editor.draft?.markerIds ?? editor.record?.markers.map((m) => m.id) ?? [],
    }),
    [editor.record],
  );
  return (
    <>
      <EditorPage title={editor.isNew ? `New ${screens.what}` : screens.title} editor={editor} doneHref={tableHref} deleteWhat={(c) => `${screens.what} "${c.name}"`}>
        <RecordForm
          schema={ChemistryInput}
          values={values}
          onSubmit={editor.save}
          busy={editor.status === 'saving'}
          cancelHref={tableHref}
          readOnly={!mayEdit}
          onDelete={!editor.isNew && can(principal, screens.entity, 'Delete') ? editor.askDelete : undefined}
        >
          <TextField name="name" label="Name" required />
          <MarkerOrderField known={known} choices={choices} choiceNoun={screens.choiceNoun} readOnly={!mayEdit} />
        </RecordForm>
      </EditorPage>
      {/* Beside the page, not in it: saving thresholds moves the kit's version and its form reads it again meanwhile. */}
      {editor.record ? <KitThresholds chemistryId={editor.record.id} chemistryName={editor.record.name} calls={calls} mayEdit={mayEdit} onSaved={editor.reload} /> : null}
    </>
  );
}
