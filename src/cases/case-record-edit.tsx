import { useMemo, type ReactNode } from 'react';
import type { z } from 'zod';
import type { DefaultValues, FieldValues } from 'react-hook-form';
import { can } from '../../core/permissions';
import { usePrincipal } from '../app/use-principal';
import { EditorPage } from '../ui/record/editor-page';
import { RecordForm } from '../ui/record/record-form';
import { useRecordEditor } from '../ui/record/use-record-editor';
import type { CaseRecordCalls } from './case-records-api';
import { refusedDelete } from './refused-delete';

interface CaseRecordEditProps<R extends { id: string; version: number }, V extends FieldValues> {
  caseId: string;
  /** The route's id: `new` (anything not a GUID) adds. */
  id: string;
  calls: CaseRecordCalls<R, V>;
  /** The core/ schema the server validates with. */
  schema: z.ZodType<V, V>;
  /** The heading: for a new record, a loaded one, or one still loading (record null, isNew false). */
  title(record: R | null, isNew: boolean): string;
  emptyValues: V;
  valuesOf(record: R): V;
  deleteWhat(record: R): string;
  /** The case tab the record is listed on: where Save, Delete and Cancel lead. */
  tabHref: string;
  children: ReactNode;
}

/** The form of a record kept in a case (involved party, physical item): add, edit with its version, delete with confirmation. */
export function CaseRecordEdit<R extends { id: string; version: number }, V extends FieldValues>(props: CaseRecordEditProps<R, V>) {
  const { caseId, id, calls, schema, title, emptyValues, valuesOf, deleteWhat, tabHref, children } = props;
  const principal = usePrincipal();
  const editor = useRecordEditor<R, V>(id, {
    load: (recordId) => calls.get(caseId, recordId),
    save: ({ id: existing, record, values }) => (existing && record ? calls.update(caseId, existing, { ...values, version: record.version }) : calls.add(caseId, values)),
    remove: ({ id: existing }) => calls.remove(caseId, existing).catch(refusedDelete),
  });
  const values = useMemo(() => editor.draft ?? (editor.record ? valuesOf(editor.record) : emptyValues), [editor.record]);
  // Saving and deleting both need Cases Edit on the server.
  const edits = can(principal, 'Cases', 'Edit');
  return (
    <EditorPage title={title(editor.record, editor.isNew)} editor={editor} doneHref={tabHref} deleteWhat={deleteWhat}>
      <RecordForm
        schema={schema}
        values={values as DefaultValues<V>}
        onSubmit={editor.save}
        busy={editor.status === 'saving'}
        cancelHref={tabHref}
        readOnly={!edits}
        onDelete={!editor.isNew && edits ? editor.askDelete : undefined}
      >
        {children}
      </RecordForm>
    </EditorPage>
  );
}
