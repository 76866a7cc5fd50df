import { useCallback, useMemo } from 'react';
import { can } from '../../../core/permissions';
import { AnalysisGroupInput, type AnalysisGroup } from '../../../core/schemas/analysis-groups';
import type { ListQueryInput } from '../../../core/schemas/list';
import { useApi } from '../../app/api-provider';
import { routes } from '../../app/routes';
import { TextField } from '../../ui/form/text-field';
import { EditorPage } from '../../ui/record/editor-page';
import { RecordForm } from '../../ui/record/record-form';
import { usePrincipal } from '../../app/use-principal';
import { useRecordEditor } from '../../ui/record/use-record-editor';
import { analysisGroupsApi } from './analysis-groups-api';
import { GroupAnalyses } from './group-analyses';

/** AnalysisGroupEdit (spec 2.7): the group's name, and below it the analyses it holds. */
export function AnalysisGroupEdit({ orgId, analysisGroupId }: { orgId: string; analysisGroupId: string }) {
  const api = useApi();
  const principal = usePrincipal();
  const calls = useMemo(() => analysisGroupsApi(api), [api]);
  const editor = useRecordEditor<AnalysisGroup, AnalysisGroupInput>(analysisGroupId, {
    load: calls.get,
    save: ({ id, record, values }) => (id && record ? calls.update(id, { ...values, version: record.version }) : calls.add(values)),
    remove: ({ id }) => calls.remove(id),
  });
  const tableHref = routes.AnalysisGroups.href({ orgId });
  const values = useMemo(() => ({ name: editor.draft?.name ?? editor.record?.name ?? '' }), [editor.record]);
  const loadAnalyses = useCallback((query: ListQueryInput) => calls.analyses(analysisGroupId, query), [calls, analysisGroupId]);
  const mayEdit = can(principal, 'Analyses', editor.isNew ? 'Add' : 'Edit');
  return (
    <EditorPage title={editor.isNew ? 'New analysis group' : 'Analysis group'} editor={editor} doneHref={tableHref} deleteWhat={(r) => `analysis group "${r.name}"`}>
      <RecordForm
        schema={AnalysisGroupInput}
        values={values}
        onSubmit={editor.save}
        busy={editor.status === 'saving'}
        cancelHref={tableHref}
        readOnly={!mayEdit}
        onDelete={!editor.isNew && can(principal, 'Analyses', 'Delete') ? editor.askDelete : undefined}
      >
        <TextField name="name" label="Name" required />
      </RecordForm>
      {editor.record ? <GroupAnalyses orgId={orgId} analysisGroupId={editor.record.id} groupName={editor.record.name} load={loadAnalyses} /> : null}
    </EditorPage>
  );
}
