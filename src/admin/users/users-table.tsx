import { useMemo } from 'react';
import { can } from '../../../core/permissions';
import type { ListQueryInput } from '../../../core/schemas/list';
import type { UserSummary } from '../../../core/schemas/users';
import { useApi } from '../../app/api-provider';
import { routes } from '../../app/routes';
import { TablePage } from '../../ui/record/table-page';
import { usePrincipal } from '../../app/use-principal';
import { usersApi } from './users-api';

/** The Users table (spec 2.7: Email, First Name, Last Name, Scope, Organizations, Role) of one organization, or all. */
export function UsersTable({ orgId }: { orgId: string }) {
  const api = useApi();
  const principal = usePrincipal();
  const load = useMemo(() => (query: ListQueryInput) => usersApi(api).list(orgId, query), [api, orgId]);
  return (
    <TablePage<UserSummary>
      title={routes.Users.title}
      columns={[
        { field: 'email', header: 'Email', sortable: true, filterable: true },
        { field: 'firstName', header: 'First Name', sortable: true, filterable: true },
        { field: 'lastName', header: 'Last Name', sortable: true, filterable: true },
        { field: 'scope', header: 'Scope', sortable: true, text: (row) => row.scope ?? 'Not set' },
        { field: 'organizations', header: 'Organizations', text: (row) => row.organizations.map((o) => o.name).join(', ') },
        { field: 'role', header: 'Role', sortable: true, text: (row) => row.role?.name ?? 'None' },
      ]}
      load={load}
      rowHref={can(principal, 'Users', 'Edit') ? (row) => routes.UsersEdit.href({ orgId, id: row.id }) : undefined}
      addHref={can(principal, 'Users', 'Add') ? routes.UsersEdit.href({ orgId, id: 'new' }) : undefined}
      addLabel="Add user"
    />
  );
}
