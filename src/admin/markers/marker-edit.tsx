import { useEffect, useMemo } from 'react';
import { useFormContext } from 'react-hook-form';
import { can } from '../../../core/permissions';
import { MARKER_KINDS, MARKER_KIND_LABELS, MarkerInput, type Marker } from '../../../core/schemas/markers';
import { useApi } from '../../app/api-provider';
import { routes } from '../../app/routes';
import { CheckboxField } from '../../ui/form/checkbox-field';
import { SelectField } from '../../ui/form/select-field';
import { TextField } from '../../ui/form/text-field';
import { EditorPage } from '../../ui/record/editor-page';
import { RecordForm } from '../../ui/record/record-form';
import { usePrincipal } from '../../app/use-principal';
import { useRecordEditor } from '../../ui/record/use-record-editor';
import { AliasesField } from './aliases-field';
import { markerApi } from './marker-api';

const KIND_OPTIONS = MARKER_KINDS.map((kind) => ({ value: kind, label: MARKER_KIND_LABELS[kind] }));

/** Kind and the fields that depend on it: multi-copy exists only for Y-STR markers. */
function MarkerFields() {
  const { watch, setValue, getValues } = useFormContext<MarkerInput>();
  const isYStr = watch('kind') === 'YStr';
  useEffect(() => {
    if (!isYStr && getValues('multiCopy')) setValue('multiCopy', false);
  }, [isYStr]);
  return (
    <>
      <TextField name="name" label="Name" required />
      <SelectField name="kind" label="Kind" required options={KIND_OPTIONS} placeholder="Choose a kind" />
      <AliasesField />
      {isYStr ? (
        <CheckboxField name="multiCopy" label="Multi-copy" hint="The marker has several copies (e.g. DYS385a/b); its values are compared as an unordered set." />
      ) : null}
    </>
  );
}

const blank = { name: '', kind: '', aliases: [], multiCopy: false } as unknown as MarkerInput;

/** Add or change a marker (spec 2.7 MarkersEdit); delete it when no chemistry or population uses it. */
export function MarkerEdit({ orgId, id }: { orgId: string; id: string }) {
  const api = useApi();
  const principal = usePrincipal();
  const calls = useMemo(() => markerApi(api), [api]);
  const editor = useRecordEditor<Marker, MarkerInput>(id, {
    load: calls.get,
    save: ({ id: existing, record, values }) => (existing && record ? calls.update(existing, { ...values, version: record.version }) : calls.add(values)),
    remove: ({ id: existing }) => calls.remove(existing),
  });
  const tableHref = routes.Markers.href({ orgId });
  const values = useMemo((): MarkerInput => {
    const source = editor.draft ?? editor.record;
    return source ? { name: source.name, kind: source.kind, aliases: [...source.aliases], multiCopy: source.multiCopy } : blank;
  }, [editor.record]);
  const mayEdit = can(principal, 'Markers', editor.isNew ? 'Add' : 'Edit');
  return (
    <EditorPage title={editor.isNew ? 'New marker' : 'Marker'} editor={editor} doneHref={tableHref} deleteWhat={(m) => `marker "${m.name}"`}>
      <RecordForm
        schema={MarkerInput}
        values={values}
        onSubmit={editor.save}
        busy={editor.status === 'saving'}
        cancelHref={tableHref}
        readOnly={!mayEdit}
        onDelete={!editor.isNew && can(principal, 'Markers', 'Delete') ? editor.askDelete : undefined}
      >
        <MarkerFields />
      </RecordForm>
    </EditorPage>
  );
}
