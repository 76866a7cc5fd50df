import { useMemo } from 'react';
import { can } from '../../../core/permissions';
import type { AnalysisGroupSummary } from '../../../core/schemas/analysis-groups';
import { useApi } from '../../app/api-provider';
import { routes } from '../../app/routes';
import { TablePage } from '../../ui/record/table-page';
import { usePrincipal } from '../../app/use-principal';
import { analysisGroupsApi } from './analysis-groups-api';

/** The Analysis groups table: Name and the number of analyses in each. */
export function AnalysisGroupsTable({ orgId }: { orgId: string }) {
  const api = useApi();
  const principal = usePrincipal();
  const calls = useMemo(() => analysisGroupsApi(api), [api]);
  return (
    <TablePage<AnalysisGroupSummary>
      title={routes.AnalysisGroups.title}
      columns={[
        { field: 'name', header: 'Name', sortable: true, filterable: true },
        { field: 'analysisCount', header: 'Analyses', sortable: true, width: 140 },
      ]}
      load={calls.list}
      rowHref={(row) => routes.AnalysisGroupEdit.href({ orgId, analysisGroupId: row.id })}
      addHref={can(principal, 'Analyses', 'Add') ? routes.AnalysisGroupEdit.href({ orgId, analysisGroupId: 'new' }) : undefined}
      addLabel="Add analysis group"
    />
  );
}
