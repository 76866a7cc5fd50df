import { useCallback, useMemo } from 'react';
import { can } from '../../../core/permissions';
import type { ListQueryInput } from '../../../core/schemas/list';
import type { Population } from '../../../core/schemas/populations';
import { useApi } from '../../app/api-provider';
import { routes } from '../../app/routes';
import type { DataColumn } from '../../ui/data-table/data-table';
import { TablePage } from '../../ui/record/table-page';
import { usePrincipal } from '../../app/use-principal';
import { formatDate } from './format';
import { populationApi } from './population-api';

const NAME: DataColumn<Population> = { field: 'name', header: 'Name', sortable: true, filterable: true };
const CREATED: DataColumn<Population> = { field: 'createdAt', header: 'Date Created', sortable: true, text: (p) => formatDate(p.createdAt) };
const ORGANIZATIONS: DataColumn<Population> = { field: 'organizations', header: 'Organizations', text: (p) => p.organizations.map((o) => o.name).join(', ') };

/** Populations (spec 2.7): Name, Date Created, plus Organizations when the user's scope is All. */
export function PopulationsTable({ orgId }: { orgId: string }) {
  const api = useApi();
  const principal = usePrincipal();
  const calls = useMemo(() => populationApi(api), [api]);
  const load = useCallback((query: ListQueryInput) => calls.list(orgId, query), [calls, orgId]);
  const edit = routes.PopulationsEdit;
  return (
    <TablePage<Population>
      title={routes.Populations.title}
      columns={principal.scope === 'All' ? [NAME, CREATED, ORGANIZATIONS] : [NAME, CREATED]}
      load={load}
      rowHref={(row) => edit.href({ orgId, id: row.id })}
      addHref={can(principal, 'Populations', 'Add') ? edit.href({ orgId, id: 'new' }) : undefined}
      addLabel="Add population"
    />
  );
}
