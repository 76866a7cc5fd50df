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

interface CaseRecordEditProps<R extends { id: string; version: number }, V extends FieldValues, F extends FieldValues = V> {
  caseId: string;
  /** The route's id: `new` (anything not a GUID) adds. */
  id: string;
  calls: CaseRecordCalls<R, V>;
  /** The core/ schema of the form: the one the server validates with, unless the form's fields differ from the call's. */
  schema: z.ZodType<F, F>;
  /** The heading: for a new record, a loaded one, or one still loading (record null, isNew false). */
  title(record: R | null, isNew: boolean): string;
  emptyValues: F;
  valuesOf(record: R): F;
  /** The call's body from the form's values, where they differ (e.g. a local date and time sent as an instant). */
  toInput?: ((values: F) => V) | undefined;
  deleteWhat(record: R): string;
  deleteNote?: ((record: R) => ReactNode) | undefined;
  /** The case tab the record is listed on: where Save, Delete and Cancel lead. */
  tabHref: string;
  children: ReactNode;
}

/** The form of a record kept in a case (involved party, physical item): add, edit with its version, delete with confirmation. */
export function CaseRecordEdit<R extends { id: string; version: number }, V extends FieldValues, F extends FieldValues = V>(props: CaseRecordEditProps<R, V, F>) {
  const { caseId, id, calls, schema, title, emptyValues, valuesOf, toInput, deleteWhat, deleteNote, tabHref, children } = props;
  const principal = usePrincipal();
  const editor = useRecordEditor<R, F>(id, {
    load: (recordId) => calls.get(caseId, recordId),
    save: ({ id: existing, record, values }) => {
      const input = toInput ? toInput(values) : (values as unknown as V);
      return existing && record ? calls.update(caseId, existing, { ...input, version: record.version }) : calls.add(caseId, input);
    },
    remove: ({ id: existing }) => calls.remove(caseId, existing).catch(refusedDelete),
  });
  const values = useMemo(() => editor.draft ?? (editor.record ? valuesOf(editor.record) : emptyValues), [editor.record]);
  // Saving and deleting both need Cases Edit on the server.
  const edits = can(principal, 'Cases', 'Edit');
  return (
    <EditorPage title={title(editor.record, editor.isNew)} editor={editor} doneHref={tabHref} deleteWhat={deleteWhat} deleteNote={deleteNote}>
      <RecordForm
        schema={schema}
        values={values as DefaultValues<F>}
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
