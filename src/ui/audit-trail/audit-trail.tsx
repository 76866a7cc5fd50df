import type { AuditEntry } from '../../../core/schemas/audit';
import type { ListQueryInput, ListResult } from '../../../core/schemas/list';
import { DataTable, type DataColumn } from '../data-table/data-table';
import { auditChanges } from './audit-changes';

type AuditRow = AuditEntry & { id: string };

const when = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'medium' });

const COLUMNS: readonly DataColumn<AuditRow>[] = [
  { field: 'at', header: 'When', sortable: true, text: (r) => when(r.at), width: 200 },
  { field: 'userName', header: 'Who', sortable: true, filterable: true, width: 180 },
  { field: 'entity', header: 'Record', sortable: true, filterable: true, width: 140 },
  { field: 'action', header: 'Action', sortable: true, filterable: true, width: 170 },
  {
    field: 'changes',
    header: 'Changes',
    flex: 2,
    text: (r) =>
      auditChanges(r.before, r.after)
        .map((c) => `${c.field}: ${c.before} → ${c.after}`)
        .join('; '),
  },
];

/** An audit trail (ARCHITECTURE.md "Audit"): who did what and when, with the values before and after; newest first. */
export function AuditTrail({ label, load }: { label: string; load(query: ListQueryInput): Promise<ListResult<AuditEntry>> }) {
  const loadRows = async (query: ListQueryInput) => {
    const page = await load(query);
    return { count: page.count, items: page.items.map((e) => ({ ...e, id: String(e.seq) })) };
  };
  return <DataTable<AuditRow> label={label} columns={COLUMNS} load={loadRows} emptyText="No changes recorded yet." />;
}
