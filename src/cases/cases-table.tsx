import { useCallback, useMemo } from 'react';
import { Link } from 'wouter';
import { ALL_ORGANIZATIONS, can } from '../../core/permissions';
import type { Case } from '../../core/schemas/cases';
import type { ListQueryInput } from '../../core/schemas/list';
import { useApi } from '../app/api-provider';
import { routes } from '../app/routes';
import { useShellSession } from '../app/shell-session';
import { usePrincipal } from '../app/use-principal';
import type { DataColumn } from '../ui/data-table/data-table';
import { TablePage } from '../ui/record/table-page';
import { casesApi } from './cases-api';
import { formatDate } from './format';

/** The list call's sort and filter names (server/http/cases/crud-routes.ts LIST_COLUMNS). */
function caseColumns(orgId: string, withOrganization: boolean): DataColumn<Case>[] {
  const caseHref = (c: Case) => routes.CaseInvolvedParties.href({ orgId, caseId: c.id });
  return [
    { field: 'caseNumber', header: 'Case', sortable: true, filterable: true, text: (c) => c.caseNumber, render: (c) => <Link href={caseHref(c)}>{c.caseNumber}</Link> },
    { field: 'caseType', header: 'Case type', sortable: true, filterable: true, text: (c) => c.caseTypeName },
    ...(withOrganization ? [{ field: 'organization', header: 'Organization', sortable: true, filterable: true, text: (c: Case) => c.organizationName }] : []),
    { field: 'status', header: 'Status', sortable: true, filterable: true, width: 120 },
    { field: 'updatedAt', header: 'Updated', sortable: true, text: (c) => formatDate(c.updatedAt), width: 150 },
  ];
}

/** Cases (spec 2.8): every case of the organization, or of every reachable one at `all`; a row opens the case. */
export function CasesTable({ orgId }: { orgId: string }) {
  const api = useApi();
  const principal = usePrincipal();
  const { me } = useShellSession();
  const calls = useMemo(() => casesApi(api), [api]);
  const load = useCallback((query: ListQueryInput) => calls.list(orgId, query), [calls, orgId]);
  const withOrganization = orgId === ALL_ORGANIZATIONS || me.organizations.length > 1;
  const columns = useMemo(() => caseColumns(orgId, withOrganization), [orgId, withOrganization]);
  return (
    <TablePage<Case>
      title={routes.Cases.title}
      columns={columns}
      load={load}
      rowHref={(row) => routes.CaseInvolvedParties.href({ orgId, caseId: row.id })}
      addHref={can(principal, 'Cases', 'Add') ? routes.CaseEdit.href({ orgId, caseId: 'new' }) : undefined}
      addLabel="Add case"
    />
  );
}
