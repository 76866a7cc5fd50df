import { useMemo } from 'react';
import { can } from '../../../core/permissions';
import type { CitationSummary } from '../../../core/schemas/citations';
import { useApi } from '../../app/api-provider';
import { routes } from '../../app/routes';
import { TablePage } from '../../ui/record/table-page';
import { usePrincipal } from '../../app/use-principal';
import { citationsApi } from './citations-api';
import { formatFileSize } from '../../ui/file-size';

/** The Citations table: title and the attached file (spec 2.7; only an administrator with scope All opens it). */
export function CitationsTable({ orgId }: { orgId: string }) {
  const api = useApi();
  const principal = usePrincipal();
  const calls = useMemo(() => citationsApi(api), [api]);
  return (
    <TablePage<CitationSummary>
      title={routes.Citations.title}
      columns={[
        { field: 'title', header: 'Title', sortable: true, filterable: true },
        { field: 'fileName', header: 'File', sortable: true, filterable: true, text: (row) => row.fileName ?? 'No file' },
        { field: 'fileSize', header: 'Size', sortable: true, width: 120, text: (row) => formatFileSize(row.fileSize) },
      ]}
      load={calls.list}
      rowHref={(row) => routes.CitationsEdit.href({ orgId, id: row.id })}
      addHref={can(principal, 'Citations', 'Add') ? routes.CitationsEdit.href({ orgId, id: 'new' }) : undefined}
      addLabel="Add citation"
    />
  );
}
