import type { AuditExport } from '../audit/audit-export';
import { csvText } from '../exports/csv';

/**
 * An exported trail as CSV (issue 18): a heading block (what, who exported it when, the time zone, the
 * chain's verdict), then one line per changed field — a row that changed no field gets one line — so a
 * spreadsheet filters by record, user or field.
 */
export function auditTrailCsv(trail: AuditExport): string {
  const lines: (string | number)[][] = [
    [trail.title],
    [`Exported by ${trail.exportedBy} on ${trail.exportedAt} (${trail.timeZone})`],
    [`Times are in ${trail.timeZone}`],
    [trail.verification.text],
    [],
    ['Row', `When (${trail.timeZone})`, 'Who', 'Record type', 'Record', 'Action', 'Field', 'Before', 'After', 'Hash'],
  ];
  for (const row of trail.rows) {
    const head = [row.seq, row.when, row.who, row.recordType, row.record, row.action];
    if (row.changes.length === 0) lines.push([...head, '', '', '', row.hash]);
    for (const change of row.changes) lines.push([...head, change.field, change.before, change.after, row.hash]);
  }
  return csvText(lines);
}
