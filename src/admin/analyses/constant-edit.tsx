import { useMemo } from 'react';
import { useWatch } from 'react-hook-form';
import { can } from '../../../core/permissions';
import { ConstantInput, type Constant } from '../../../core/schemas/analyses';
import { useApi } from '../../app/api-provider';
import { routes } from '../../app/routes';
import { usePrincipal } from '../../app/use-principal';
import { TextField } from '../../ui/form/text-field';
import { EditorPage } from '../../ui/record/editor-page';
import { RecordForm } from '../../ui/record/record-form';
import { useRecordEditor } from '../../ui/record/use-record-editor';
import { analysesApi } from './analyses-api';
import { MathText } from './math-text';
import { ServerFieldErrors, useServerFieldErrors } from './server-field-errors';
import './analyses.css';

/** The notation as it will read, drawn while it is typed. */
function NotationPreview() {
  const notation = (useWatch({ name: 'notation' }) as string | undefined) ?? '';
  return (
    <figure className="math-preview" aria-label="Notation preview">
      <figcaption className="math-preview__caption">Preview</figcaption>
      {notation.trim() ? <MathText latex={notation} display /> : null}
    </figure>
  );
}

interface ConstantEditProps {
  orgId: string;
  analysisGroupId: string;
  analysisId: string;
  constantId: string;
}

/**
 * ConstantEdit (spec 2.5): a named number a computational analysis's formulae use; `new` adds. The
 * server refuses renaming or deleting a constant that formulae use, naming them (shown as the error).
 */
export function ConstantEdit({ orgId, analysisGroupId, analysisId, constantId }: ConstantEditProps) {
  const api = useApi();
  const principal = usePrincipal();
  const calls = useMemo(() => analysesApi(api), [api]);
  const server = useServerFieldErrors();
  const editor = useRecordEditor<Constant, ConstantInput>(constantId, {
    load: (id) => calls.constant(analysisId, id),
    save: ({ id, record, values }) =>
      server.capture(id && record ? calls.updateConstant(analysisId, id, { ...values, version: record.version }) : calls.addConstant(analysisId, values)),
    remove: ({ id }) => calls.removeConstant(analysisId, id),
  });
  const analysisHref = routes.AnalysisEdit.href({ orgId, analysisGroupId, analysisId });
  const values = useMemo((): Partial<ConstantInput> => {
    const r = editor.draft ?? editor.record;
    return r ? { name: r.name, notation: r.notation, value: r.value } : { name: '', notation: '' };
  }, [editor.record]);
  const mayEdit = can(principal, 'Analyses', editor.isNew ? 'Add' : 'Edit');
  return (
    <EditorPage title={editor.isNew ? 'New constant' : 'Constant'} editor={editor} doneHref={analysisHref} deleteWhat={(c) => `constant ${c.name}`}>
      <RecordForm
        schema={ConstantInput}
        values={values}
        onSubmit={editor.save}
        busy={editor.status === 'saving'}
        cancelHref={analysisHref}
        readOnly={!mayEdit}
        onDelete={!editor.isNew && can(principal, 'Analyses', 'Delete') ? editor.askDelete : undefined}
      >
        <ServerFieldErrors errors={server.errors} />
        <TextField name="name" label="Name" required hint="As formulae write it: a letter, then letters, digits or _ (e.g. theta, k0)." />
        <TextField name="notation" label="Mathematical notation" hint="LaTeX, e.g. \theta or \kappa_0." />
        <NotationPreview />
        <TextField name="value" label="Value" type="number" required />
      </RecordForm>
    </EditorPage>
  );
}
