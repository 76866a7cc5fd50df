import { useMemo } from 'react';
import { can } from '../../../core/permissions';
import type { NamedRecord } from '../../../core/schemas/named-record';
import { useApi } from '../../app/api-provider';
import { routes } from '../../app/routes';
import { TablePage } from '../../ui/record/table-page';
import { usePrincipal } from '../../app/use-principal';
import { namedListApi } from './named-list-api';
import type { NamedList } from './lists';

/** The table of a name-only list: one Name column (spec 2.7 Organizations: Name). */
export function NamedListTable({ list, orgId }: { list: NamedList; orgId: string }) {
  const api = useApi();
  const principal = usePrincipal();
  const calls = useMemo(() => namedListApi(api, list), [api, list]);
  const table = routes[list.table];
  const edit = routes[list.edit];
  return (
    <TablePage<NamedRecord>
      title={table.title}
      columns={[{ field: 'name', header: 'Name', sortable: true, filterable: true }]}
      load={calls.list}
      rowHref={(row) => edit.href({ orgId, id: row.id })}
      addHref={can(principal, list.entity, 'Add') ? edit.href({ orgId, id: 'new' }) : undefined}
      addLabel={`Add ${list.what}`}
    />
  );
}
