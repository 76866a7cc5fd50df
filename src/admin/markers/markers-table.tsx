import { useMemo } from 'react';
import { can } from '../../../core/permissions';
import { MARKER_KIND_LABELS, type Marker } from '../../../core/schemas/markers';
import { useApi } from '../../app/api-provider';
import { routes } from '../../app/routes';
import { TablePage } from '../../ui/record/table-page';
import { usePrincipal } from '../../app/use-principal';
import { markerApi } from './marker-api';

/** The markers table (spec 2.7): Name, Kind, Aliases. */
export function MarkersTable({ orgId }: { orgId: string }) {
  const api = useApi();
  const principal = usePrincipal();
  const calls = useMemo(() => markerApi(api), [api]);
  return (
    <TablePage<Marker>
      title={routes.Markers.title}
      columns={[
        { field: 'name', header: 'Name', sortable: true, filterable: true },
        { field: 'kind', header: 'Kind', sortable: true, text: (m) => MARKER_KIND_LABELS[m.kind], width: 140 },
        { field: 'aliases', header: 'Aliases', filterable: true, text: (m) => m.aliases.join(', ') },
      ]}
      load={calls.list}
      rowHref={(row) => routes.MarkersEdit.href({ orgId, id: row.id })}
      addHref={can(principal, 'Markers', 'Add') ? routes.MarkersEdit.href({ orgId, id: 'new' }) : undefined}
      addLabel="Add marker"
    />
  );
}
