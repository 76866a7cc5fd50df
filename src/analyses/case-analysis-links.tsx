import { useEffect, useMemo, useState } from 'react';
import { Link } from 'wouter';
import type { AnalysisGroupSummary } from '../../core/schemas/analysis-groups';
import { analysisGroupsApi } from '../admin/analysis-groups/analysis-groups-api';
import { useApi } from '../app/api-provider';
import { routes } from '../app/routes';

/** Where the calculator starts from a case (spec 2.5): each analysis group, offering that case's profiles; the calculator's breadcrumb leads back here. */
export function CaseAnalysisLinks({ orgId, caseId }: { orgId: string; caseId: string }) {
  const api = useApi();
  const calls = useMemo(() => analysisGroupsApi(api), [api]);
  const [groups, setGroups] = useState<AnalysisGroupSummary[] | null>(null);
  useEffect(() => {
    let current = true;
    calls.list({ pageSize: 100, sort: 'name:asc' }).then(
      (list) => current && setGroups(list.items),
      // Without groups there is nothing to offer; the case itself still works.
      () => current && setGroups([]),
    );
    return () => {
      current = false;
    };
  }, [calls]);
  if (!groups || groups.length === 0) return null;
  return (
    <nav className="case-analyses" aria-label="Run an analysis on this case">
      <h2>Run an analysis</h2>
      <ul>
        {groups.map((g) => (
          <li key={g.id}>
            <Link href={`${routes.AnalysisGroupAnalyses.href({ orgId, analysisGroupId: g.id })}?caseId=${encodeURIComponent(caseId)}`}>{g.name}</Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
