import { useMemo } from 'react';
import { can } from '../../../core/permissions';
import { markerSummary, type Chemistry } from '../../../core/schemas/chemistries';
import { useApi } from '../../app/api-provider';
import { routes } from '../../app/routes';
import { TablePage } from '../../ui/record/table-page';
import { usePrincipal } from '../../app/use-principal';
import { chemistryApi } from './chemistry-api';
import type { ChemistryScreens } from './chemistry-kinds';

/** The chemistries of one kind (spec 2.7: Name, Markers as count and names). */
export function ChemistriesTable({ screens, orgId }: { screens: ChemistryScreens; orgId: string }) {
  const api = useApi();
  const principal = usePrincipal();
  const calls = useMemo(() => chemistryApi(api, screens), [api, screens]);
  const edit = routes[screens.edit];
  return (
    <TablePage<Chemistry>
      title={routes[screens.table].title}
      columns={[
        { field: 'name', header: 'Name', sortable: true, filterable: true },
        // Filtering this column finds the kits that hold a marker ("SE33").
        { field: 'markers', header: 'Markers', filterable: true, text: markerSummary, flex: 3 },
      ]}
      load={calls.list}
      rowHref={(row) => edit.href({ orgId, id: row.id })}
      addHref={can(principal, screens.entity, 'Add') ? edit.href({ orgId, id: 'new' }) : undefined}
      addLabel={`Add ${screens.what}`}
    />
  );
}
