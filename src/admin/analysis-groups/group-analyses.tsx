import { useLocation, Link } from 'wouter';
import { can } from '../../../core/permissions';
import type { AnalysisSummary } from '../../../core/schemas/analysis-groups';
import type { ListQueryInput, ListResult } from '../../../core/schemas/list';
import { routes } from '../../app/routes';
import { DataTable } from '../../ui/data-table/data-table';
import { usePrincipal } from '../../app/use-principal';

interface GroupAnalysesProps {
  orgId: string;
  analysisGroupId: string;
  /** The group's name, naming the table for screen readers. */
  groupName: string;
  load(query: ListQueryInput): Promise<ListResult<AnalysisSummary>>;
}

/** The analyses of a group, read-only here; each row opens AnalysisEdit (built with the genetics issue). */
export function GroupAnalyses({ orgId, analysisGroupId, groupName, load }: GroupAnalysesProps) {
  const [, navigate] = useLocation();
  const principal = usePrincipal();
  const href = (analysisId: string) => routes.AnalysisEdit.href({ orgId, analysisGroupId, analysisId });
  return (
    <section className="group-analyses" aria-labelledby="group-analyses-title">
      <div className="page__header">
        <h2 id="group-analyses-title">Analyses</h2>
        {can(principal, 'Analyses', 'Add') ? (
          <Link href={href('new')} className="button button--secondary">
            Add analysis
          </Link>
        ) : null}
      </div>
      <DataTable<AnalysisSummary>
        label={`Analyses in ${groupName}`}
        columns={[
          { field: 'name', header: 'Name', sortable: true, filterable: true },
          { field: 'label', header: 'Label', sortable: true, filterable: true },
          { field: 'kind', header: 'Kind', sortable: true, filterable: true },
          { field: 'active', header: 'Active', sortable: true, width: 110, text: (row) => (row.active ? 'Yes' : 'No') },
        ]}
        load={load}
        rowHref={(row) => href(row.id)}
        onNavigate={navigate}
        emptyText="This group has no analyses yet."
      />
    </section>
  );
}
