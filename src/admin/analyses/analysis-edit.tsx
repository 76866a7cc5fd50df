import { useCallback, useMemo } from 'react';
import { useWatch } from 'react-hook-form';
import { can } from '../../../core/permissions';
import { CONTINUOUS_MIXTURE, type Analysis, type AnalysisInput } from '../../../core/schemas/analyses';
import type { ListQueryInput } from '../../../core/schemas/list';
import { useApi } from '../../app/api-provider';
import { routes } from '../../app/routes';
import { usePrincipal } from '../../app/use-principal';
import { CheckboxField } from '../../ui/form/checkbox-field';
import { TextField } from '../../ui/form/text-field';
import { EditorPage } from '../../ui/record/editor-page';
import { RecordForm } from '../../ui/record/record-form';
import { useRecordEditor } from '../../ui/record/use-record-editor';
import { analysesApi, type AnalysesCalls } from './analyses-api';
import { AnalysisForm, analysisBody, EMPTY_ANALYSIS, formValuesOf, weighsMutation } from './analysis-form';
import { AnalysisTables } from './analysis-tables';
import { KindField, ProfileKindField } from './kind-field';
import { MissingPatterns } from './missing-patterns';
import { MixtureField, MixtureRoles } from './mixture-field';
import { MutationField } from './mutation-field';
import { PedigreeField } from './pedigree-field';
import { PedigreePicture } from './pedigree-picture';
import { RolesField } from './roles-field';
import { ServerFieldErrors, useServerFieldErrors } from './server-field-errors';
import { ThresholdField } from './threshold-field';
import './analyses.css';

/**
 * The fields that depend on the kind: a Pedigree analysis draws its pedigree instead of naming roles; mutation where a
 * pedigree is weighed; a Mixture analysis shows its two fixed roles and its parameters.
 */
function KindFields({ readOnly, stored }: { readOnly: boolean; stored: Analysis | null }) {
  const kind = useWatch({ name: 'kind' }) as AnalysisInput['kind'];
  const profileKind = useWatch({ name: 'profileKind' }) as AnalysisInput['profileKind'];
  const mutation = weighsMutation({ kind, profileKind }, stored);
  if (kind === 'Mixture') {
    return (
      <>
        <MixtureRoles />
        <MixtureField />
      </>
    );
  }
  if (kind === CONTINUOUS_MIXTURE) return <MixtureRoles />;
  return (
    <>
      {kind === 'Pedigree' ? <PedigreeField readOnly={readOnly} /> : <RolesField readOnly={readOnly} />}
      {kind === 'Computational' && stored?.pedigree && mutation ? (
        <PedigreePicture persons={stored.pedigree.persons} typed={stored.roles} target={stored.pedigree.target} label="The pedigree this analysis weighs mutation through" />
      ) : null}
      {mutation ? <MutationField optional={kind !== 'Pedigree'} /> : null}
    </>
  );
}

const deleteWhat = (r: Analysis): string =>
  r.kind === 'Pedigree' ? `analysis "${r.name}" with its pedigree` : r.kind === 'Mixture' ? `analysis "${r.name}" with its parameters` : `analysis "${r.name}" with its formulae and constants`;

export interface AnalysisEditViewProps {
  orgId: string;
  analysisGroupId: string;
  analysisId: string;
  calls: Pick<AnalysesCalls, 'get' | 'add' | 'update' | 'remove' | 'formulae' | 'constants'>;
  mayAdd: boolean;
  mayEdit: boolean;
  mayDelete: boolean;
}

/**
 * AnalysisEdit (spec 2.5): the analysis form and, once it exists, what its formula table lacks, its
 * formulae and (computational) its constants; a Pedigree analysis has its pedigree and mutation models
 * instead, a Mixture analysis its parameters. A new analysis opens itself after saving, so its formulae
 * can be added at once.
 */
export function AnalysisEdit({ orgId, analysisGroupId, analysisId }: { orgId: string; analysisGroupId: string; analysisId: string }) {
  const api = useApi();
  const principal = usePrincipal();
  const calls = useMemo(() => analysesApi(api), [api]);
  return (
    <AnalysisEditView
      orgId={orgId}
      analysisGroupId={analysisGroupId}
      analysisId={analysisId}
      calls={calls}
      mayAdd={can(principal, 'Analyses', 'Add')}
      mayEdit={can(principal, 'Analyses', 'Edit')}
      mayDelete={can(principal, 'Analyses', 'Delete')}
    />
  );
}

export function AnalysisEditView({ orgId, analysisGroupId, analysisId, calls, mayAdd, mayEdit, mayDelete }: AnalysisEditViewProps) {
  const server = useServerFieldErrors();
  const editor = useRecordEditor<Analysis, AnalysisInput>(analysisId, {
    load: calls.get,
    save: ({ id, record, values }) => {
      const body = analysisBody(values, record);
      return server.capture(id && record ? calls.update(id, { ...body, version: record.version }) : calls.add({ ...body, analysisGroupId }));
    },
    remove: ({ id }) => calls.remove(id),
  });
  const groupHref = routes.AnalysisGroupEdit.href({ orgId, analysisGroupId });
  const doneHref = (saved: Analysis | null) =>
    editor.isNew && saved && editor.status === 'saved' ? routes.AnalysisEdit.href({ orgId, analysisGroupId, analysisId: saved.id }) : groupHref;
  const values = useMemo((): AnalysisInput => {
    const r = editor.draft ?? editor.record;
    return r ? formValuesOf(r) : EMPTY_ANALYSIS;
  }, [editor.record]);
  const loadFormulae = useCallback((query: ListQueryInput) => calls.formulae(analysisId, query), [calls, analysisId]);
  const loadConstants = useCallback((query: ListQueryInput) => calls.constants(analysisId, query), [calls, analysisId]);
  const mayChange = editor.isNew ? mayAdd : mayEdit;
  return (
    <EditorPage title={editor.isNew ? 'New analysis' : (editor.record?.name ?? 'Analysis')} editor={editor} doneHref={doneHref} deleteWhat={deleteWhat}>
      <RecordForm
        schema={AnalysisForm}
        values={values}
        onSubmit={editor.save}
        busy={editor.status === 'saving'}
        cancelHref={groupHref}
        readOnly={!mayChange}
        onDelete={!editor.isNew && mayDelete ? editor.askDelete : undefined}
      >
        <ServerFieldErrors errors={server.errors} />
        <TextField name="name" label="Name" required />
        <TextField name="label" label="Label" />
        <KindField stored={editor.record} />
        <ProfileKindField />
        <KindFields readOnly={!mayChange} stored={editor.record} />
        <ThresholdField />
        <CheckboxField name="active" label="Active" />
      </RecordForm>
      {editor.record && editor.record.kind !== 'Pedigree' ? (
        <>
          <MissingPatterns patterns={editor.record.missingPatterns} />
          <AnalysisTables orgId={orgId} analysis={editor.record} mayAdd={mayAdd} loadFormulae={loadFormulae} loadConstants={loadConstants} />
        </>
      ) : null}
    </EditorPage>
  );
}
