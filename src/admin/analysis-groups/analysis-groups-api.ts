import type { AnalysisGroup, AnalysisGroupInput, AnalysisGroupSummary, AnalysisSummary } from '../../../core/schemas/analysis-groups';
import type { ListQueryInput, ListResult } from '../../../core/schemas/list';
import type { ApiClient } from '../../api/client';
import { unwrap } from '../../api/unwrap';

/** The calls of the analysis groups area (server/http/analysis-groups). */
export function analysisGroupsApi(api: ApiClient) {
  const item = (id: string) => ({ params: { path: { id } } });
  return {
    list: (query: ListQueryInput): Promise<ListResult<AnalysisGroupSummary>> => unwrap(api.GET('/api/analysis-groups', { params: { query } })),
    get: (id: string): Promise<AnalysisGroup> => unwrap(api.GET('/api/analysis-groups/{id}', item(id))),
    add: (body: AnalysisGroupInput): Promise<AnalysisGroup> => unwrap(api.POST('/api/analysis-groups', { body })),
    update: (id: string, body: AnalysisGroupInput & { version: number }): Promise<AnalysisGroup> =>
      unwrap(api.PUT('/api/analysis-groups/{id}', { ...item(id), body })),
    remove: (id: string): Promise<void> => unwrap(api.DELETE('/api/analysis-groups/{id}', item(id))).then(() => undefined),
    analyses: (groupId: string, query: ListQueryInput): Promise<ListResult<AnalysisSummary>> =>
      unwrap(api.GET('/api/analysis-groups/{id}/analyses', { params: { path: { id: groupId }, query } })),
    analysis: (groupId: string, analysisId: string): Promise<AnalysisSummary> =>
      unwrap(api.GET('/api/analysis-groups/{id}/analyses/{analysisId}', { params: { path: { id: groupId, analysisId } } })),
  };
}
