import { useCallback, useMemo } from 'react';
import type { AnalysisSummary } from '../../core/schemas/analysis-groups';
import type { ListQueryInput } from '../../core/schemas/list';
import { useApi } from '../app/api-provider';
import { routes } from '../app/routes';
import { TablePage } from '../ui/record/table-page';
import { calculatorApi } from './calculator-api';

/** The calculator of one analysis, keeping the case it was opened for. */
export function calculatorHref(orgId: string, analysisGroupId: string, analysisId: string, caseId: string | null): string {
  const href = routes.Analyses.href({ orgId, analysisGroupId, analysisId });
  return caseId ? `${href}?caseId=${encodeURIComponent(caseId)}` : href;
}

/** AnalysisGroupAnalyses (spec 2.5): the group's analyses; a row opens its calculator. */
export function GroupAnalysesPage({ orgId, analysisGroupId, caseId }: { orgId: string; analysisGroupId: string; caseId: string | null }) {
  const api = useApi();
  const calls = useMemo(() => calculatorApi(api), [api]);
  const load = useCallback((query: ListQueryInput) => calls.groupAnalyses(analysisGroupId, query), [calls, analysisGroupId]);
  return (
    <TablePage<AnalysisSummary>
      title={routes.AnalysisGroupAnalyses.title}
      columns={[
        { field: 'name', header: 'Name', sortable: true, filterable: true },
        { field: 'label', header: 'Label', sortable: true, filterable: true },
        { field: 'kind', header: 'Kind', sortable: true, filterable: true },
        // An inactive analysis cannot run; its calculator says so.
        { field: 'active', header: 'Active', sortable: true, width: 110, text: (row) => (row.active ? 'Yes' : 'No') },
      ]}
      load={load}
      rowHref={(row) => calculatorHref(orgId, analysisGroupId, row.id, caseId)}
    />
  );
}
