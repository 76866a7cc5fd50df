import { useMemo } from 'react';
import { can } from '../../../core/permissions';
import type { AccessGroupSummary } from '../../../core/schemas/access-groups';
import { useApi } from '../../app/api-provider';
import { routes } from '../../app/routes';
import { TablePage } from '../../ui/record/table-page';
import { usePrincipal } from '../../app/use-principal';
import { accessGroupsApi } from './access-groups-api';

/** The Roles table (spec 2.7: Name, Admin). */
export function RolesTable({ orgId }: { orgId: string }) {
  const api = useApi();
  const principal = usePrincipal();
  const calls = useMemo(() => accessGroupsApi(api), [api]);
  const mayEdit = can(principal, 'AccessGroups', 'Edit');
  return (
    <TablePage<AccessGroupSummary>
      title={routes.AccessGroups.title}
      columns={[
        { field: 'name', header: 'Name', sortable: true, filterable: true },
        { field: 'isAdmin', header: 'Admin', sortable: true, text: (row) => (row.isAdmin ? 'Yes' : 'No') },
      ]}
      load={calls.list}
      rowHref={mayEdit ? (row) => routes.AccessGroupsEdit.href({ orgId, id: row.id }) : undefined}
      addHref={can(principal, 'AccessGroups', 'Add') ? routes.AccessGroupsEdit.href({ orgId, id: 'new' }) : undefined}
      addLabel="Add role"
    />
  );
}
