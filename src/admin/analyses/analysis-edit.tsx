import { useCallback, useMemo } from 'react';
import { can } from '../../../core/permissions';
import { ANALYSIS_KINDS, AnalysisInput, type Analysis } from '../../../core/schemas/analyses';
import type { ListQueryInput } from '../../../core/schemas/list';
import { useApi } from '../../app/api-provider';
import { routes } from '../../app/routes';
import { usePrincipal } from '../../app/use-principal';
import { CheckboxField } from '../../ui/form/checkbox-field';
import { SelectField } from '../../ui/form/select-field';
import { TextField } from '../../ui/form/text-field';
import { EditorPage } from '../../ui/record/editor-page';
import { RecordForm } from '../../ui/record/record-form';
import { useRecordEditor } from '../../ui/record/use-record-editor';
import { analysesApi } from './analyses-api';
import { AnalysisTables } from './analysis-tables';
import { MissingPatterns } from './missing-patterns';
import { RolesField } from './roles-field';
import { ThresholdField } from './threshold-field';
import './analyses.css';

const KIND_OPTIONS = ANALYSIS_KINDS.map((k) => ({ value: k, label: k }));
const PROFILE_KIND_OPTIONS = [
  { value: 'Autosomal', label: 'Autosomal' },
  { value: 'YStr', label: 'Y-STR' },
];

const KIND_HINT =
  'Computational: each formula gives a number, and constants may be used. Exclusion: each allele expression is an exclusion or not. ' +
  'Once the analysis has formulae, the kind, the profile kind and the number of roles stay as they are.';

const EMPTY: AnalysisInput = { name: '', label: '', kind: 'Computational', profileKind: 'Autosomal', roles: [''], threshold: null, active: true };

/**
 * AnalysisEdit (spec 2.5): the analysis form and, once it exists, what its formula table lacks, its
 * formulae and (computational) its constants. A new analysis opens itself after saving, so its
 * formulae can be added at once.
 */
export function AnalysisEdit({ orgId, analysisGroupId, analysisId }: { orgId: string; analysisGroupId: string; analysisId: string }) {
  const api = useApi();
  const principal = usePrincipal();
  const calls = useMemo(() => analysesApi(api), [api]);
  const editor = useRecordEditor<Analysis, AnalysisInput>(analysisId, {
    load: calls.get,
    save: ({ id, record, values }) => (id && record ? calls.update(id, { ...values, version: record.version }) : calls.add({ ...values, analysisGroupId })),
    remove: ({ id }) => calls.remove(id),
  });
  const groupHref = routes.AnalysisGroupEdit.href({ orgId, analysisGroupId });
  const doneHref = (saved: Analysis | null) =>
    editor.isNew && saved && editor.status === 'saved' ? routes.AnalysisEdit.href({ orgId, analysisGroupId, analysisId: saved.id }) : groupHref;
  const values = useMemo((): AnalysisInput => {
    const r = editor.draft ?? editor.record;
    return r ? { name: r.name, label: r.label, kind: r.kind, profileKind: r.profileKind, roles: r.roles, threshold: r.threshold, active: r.active } : EMPTY;
  }, [editor.record]);
  const loadFormulae = useCallback((query: ListQueryInput) => calls.formulae(analysisId, query), [calls, analysisId]);
  const loadConstants = useCallback((query: ListQueryInput) => calls.constants(analysisId, query), [calls, analysisId]);
  const mayEdit = can(principal, 'Analyses', editor.isNew ? 'Add' : 'Edit');
  return (
    <EditorPage title={editor.isNew ? 'New analysis' : (editor.record?.name ?? 'Analysis')} editor={editor} doneHref={doneHref} deleteWhat={(r) => `analysis "${r.name}" with its formulae and constants`}>
      <RecordForm
        schema={AnalysisInput}
        values={values}
        onSubmit={editor.save}
        busy={editor.status === 'saving'}
        cancelHref={groupHref}
        readOnly={!mayEdit}
        onDelete={!editor.isNew && can(principal, 'Analyses', 'Delete') ? editor.askDelete : undefined}
      >
        <TextField name="name" label="Name" required />
        <TextField name="label" label="Label" />
        <SelectField name="kind" label="Kind" options={KIND_OPTIONS} required hint={KIND_HINT} />
        <SelectField name="profileKind" label="Profile kind" options={PROFILE_KIND_OPTIONS} required />
        <RolesField readOnly={!mayEdit} />
        <ThresholdField />
        <CheckboxField name="active" label="Active" />
      </RecordForm>
      {editor.record ? (
        <>
          <MissingPatterns patterns={editor.record.missingPatterns} />
          <AnalysisTables orgId={orgId} analysis={editor.record} mayAdd={can(principal, 'Analyses', 'Add')} loadFormulae={loadFormulae} loadConstants={loadConstants} />
        </>
      ) : null}
    </EditorPage>
  );
}
