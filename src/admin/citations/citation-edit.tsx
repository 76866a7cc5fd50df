import { useMemo, useState } from 'react';
import { can } from '../../../core/permissions';
import { CitationInput, type Citation } from '../../../core/schemas/citations';
import { useApi } from '../../app/api-provider';
import { routes } from '../../app/routes';
import { TextField } from '../../ui/form/text-field';
import { EditorPage } from '../../ui/record/editor-page';
import { RecordForm } from '../../ui/record/record-form';
import { usePrincipal } from '../../app/use-principal';
import { useRecordEditor } from '../../ui/record/use-record-editor';
import { citationsApi } from './citations-api';
import { FileInput, fileProblem } from './file-input';
import { formatFileSize } from '../../ui/file-size';

/** The attached file of a saved citation, downloaded through the API client (the link needs the bearer token). */
function CurrentFile({ citation, download }: { citation: Citation; download(id: string): Promise<string> }) {
  const [status, setStatus] = useState<string | null>(null);
  if (!citation.fileName) return <p className="field__hint">No file is attached yet.</p>;
  const save = () => {
    setStatus(null);
    download(citation.id).then(
      (name) => setStatus(`Downloaded ${name}`),
      () => setStatus(null), // the API client has already told the user why
    );
  };
  return (
    <div className="field">
      <span className="field__label">Current file</span>
      <p>
        <button type="button" className="button button--secondary" onClick={save}>
          Download {citation.fileName}
        </button>{' '}
        <span className="field__hint">{formatFileSize(citation.fileSize)}</span>
      </p>
      <p role="status" className="field__hint">
        {status}
      </p>
    </div>
  );
}

/**
 * CitationsEdit (spec 2.7): the title and the attached file. Saving an existing citation attaches a
 * newly chosen file first, then renames: a refused file changes nothing.
 */
export function CitationEdit({ orgId, id }: { orgId: string; id: string }) {
  const api = useApi();
  const principal = usePrincipal();
  const calls = useMemo(() => citationsApi(api), [api]);
  const [file, setFile] = useState<File | null>(null);
  const editor = useRecordEditor<Citation, CitationInput>(id, {
    load: calls.get,
    save: async ({ id: existing, record, values }) => {
      if (!existing || !record) return calls.add(values, file ?? undefined);
      const attached = file ? await calls.attach(existing, record.version, file) : record;
      return values.title === attached.title ? attached : calls.rename(existing, { ...values, version: attached.version });
    },
    remove: ({ id: existing }) => calls.remove(existing),
  });
  const tableHref = routes.Citations.href({ orgId });
  const values = useMemo(() => ({ title: editor.draft?.title ?? editor.record?.title ?? '' }), [editor.record]);
  const mayEdit = can(principal, 'Citations', editor.isNew ? 'Add' : 'Edit');
  const busy = editor.status === 'saving';
  return (
    <EditorPage title={editor.isNew ? 'New citation' : 'Citation'} editor={editor} doneHref={tableHref} deleteWhat={(r) => `citation "${r.title}" and its file`}>
      <RecordForm
        schema={CitationInput}
        values={values}
        onSubmit={(v) => (fileProblem(file) ? undefined : editor.save(v))}
        busy={busy}
        cancelHref={tableHref}
        readOnly={!mayEdit}
        onDelete={!editor.isNew && can(principal, 'Citations', 'Delete') ? editor.askDelete : undefined}
      >
        <TextField name="title" label="Title" required />
        {editor.record ? <CurrentFile citation={editor.record} download={calls.download} /> : null}
        {mayEdit ? (
          <FileInput label={editor.record?.fileName ? 'Replace the file' : 'Attach a file'} file={file} onChange={setFile} disabled={busy} />
        ) : null}
      </RecordForm>
    </EditorPage>
  );
}
