import { changesText } from '../../../core/audit/audit-changes';
import { formatInstant } from '../../../core/audit/audit-values';
import { readAuditRow, type ReadableAuditRow } from '../../../core/audit/readable-audit';
import type { AuditEntry } from '../../../core/schemas/audit';
import type { ListQueryInput, ListResult } from '../../../core/schemas/list';
import { DataTable, type DataColumn } from '../data-table/data-table';
import { DownloadButtons, type DownloadChoice } from '../download-buttons';

type AuditRow = ReadableAuditRow & { id: string };

/** The formats a trail exports to (the server verifies the hash chain into either). */
export type AuditExportFormat = 'csv' | 'pdf';

/** The reader's own time zone: the screen shows local times, and an export says the same ones. */
export const readerTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const COLUMNS: readonly DataColumn<AuditRow>[] = [
  { field: 'at', header: 'When', sortable: true, text: (r) => r.when, width: 200 },
  { field: 'userName', header: 'Who', sortable: true, filterable: true, text: (r) => r.who, width: 170 },
  { field: 'entity', header: 'Record', sortable: true, filterable: true, text: (r) => `${r.recordType} ${r.record}`, width: 200 },
  { field: 'action', header: 'Action', sortable: true, filterable: true, text: (r) => r.action, width: 160 },
  { field: 'changes', header: 'Changes', flex: 2, text: (r) => changesText(r.changes) },
];

const EXPORTS: readonly DownloadChoice<AuditExportFormat>[] = [
  { key: 'csv', label: 'Export CSV' },
  { key: 'pdf', label: 'Export PDF' },
];

/** Export CSV / Export PDF of a trail, in the reader's time zone, saved under the name the server gives; the file says whether its hash chain holds. */
export function AuditExportButtons({ onExport }: { onExport(format: AuditExportFormat, timeZone: string): Promise<string> }) {
  return <DownloadButtons choices={EXPORTS} download={(format) => onExport(format, readerTimeZone())} />;
}

/**
 * An audit trail (ARCHITECTURE.md "Audit") as a reader reads it (issue 18): who did what and when in
 * local time, the record by type and name, and each changed field by its label with its values before and
 * after (ids as the names of what they stand for); newest first. With `onExport`, the trail exports as CSV
 * and PDF with its hash chain verified.
 */
export function AuditTrail({
  label,
  load,
  onExport,
  reloadKey,
}: {
  label: string;
  load(query: ListQueryInput): Promise<ListResult<AuditEntry>>;
  onExport?(format: AuditExportFormat, timeZone: string): Promise<string>;
  reloadKey?: unknown;
}) {
  const loadRows = async (query: ListQueryInput) => {
    const page = await load(query);
    const time = (iso: string) => formatInstant(iso);
    return { count: page.count, items: page.items.map((e) => ({ ...readAuditRow(e, { names: e.names, time }), id: String(e.seq) })) };
  };
  return (
    <>
      {onExport ? <AuditExportButtons onExport={onExport} /> : null}
      <DataTable<AuditRow> label={label} columns={COLUMNS} load={loadRows} reloadKey={reloadKey} emptyText="No changes recorded yet." />
    </>
  );
}
