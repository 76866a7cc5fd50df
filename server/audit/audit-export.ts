import { asc, count, type SQL } from 'drizzle-orm';
import { formatInstant } from '../../core/audit/audit-values';
import { readAuditRow, type ReadableAuditRow } from '../../core/audit/readable-audit';
import { MAX_AUDIT_EXPORT_ROWS } from '../../core/schemas/audit';
import type { Db } from '../db/database';
import { auditLog } from '../db/schema';
import { BadRequest } from '../errors';
import { toAuditEntries } from './audit-entries';
import type { AuditReader } from './audit-names';
import { verifyAuditRows, type AuditVerification } from './verify-audit-rows';

/** One exported row: its place in the chain, as a reader reads it, and its hash. */
export interface ExportedAuditRow extends ReadableAuditRow {
  seq: number;
  hash: string;
}

/** An exported trail (issue 18): what it covers, who exported it when, the zone its times are in, the rows oldest first, and the chain's verdict. */
export interface AuditExport {
  title: string;
  exportedBy: string;
  exportedAt: string;
  timeZone: string;
  rows: ExportedAuditRow[];
  verification: AuditVerification;
}

/**
 * Reads the rows `scope` selects, oldest first, verifies their chain and words them for a reader with
 * times in `timeZone`. More rows than one export holds is a 400 naming the count, so a reader narrows
 * the period instead of waiting for a file nobody can print.
 */
export async function exportAuditTrail(db: Db, scope: SQL, meta: { title: string; format: 'csv' | 'pdf'; exportedBy: string; at: Date; timeZone: string; reader: AuditReader }): Promise<AuditExport> {
  const [total] = await db.select({ n: count() }).from(auditLog).where(scope);
  const n = total?.n ?? 0;
  const most = MAX_AUDIT_EXPORT_ROWS[meta.format];
  if (n > most) {
    const csv = meta.format === 'pdf' && n <= MAX_AUDIT_EXPORT_ROWS.csv ? 'Export it as CSV, or choose' : 'Choose';
    throw new BadRequest(`This trail holds ${n.toLocaleString('en-US')} rows; one ${meta.format.toUpperCase()} export holds at most ${most.toLocaleString('en-US')}. ${csv} a shorter period or one record type.`);
  }
  const rows = await db.select().from(auditLog).where(scope).orderBy(asc(auditLog.seq));
  const entries = await toAuditEntries(db, rows, meta.reader);
  const time = (iso: string) => formatInstant(iso, meta.timeZone);
  return {
    title: meta.title,
    exportedBy: meta.exportedBy,
    exportedAt: time(meta.at.toISOString()),
    timeZone: meta.timeZone,
    rows: entries.map((e) => ({ seq: e.seq, hash: e.hash, ...readAuditRow(e, { names: e.names, time }) })),
    verification: await verifyAuditRows(db, rows),
  };
}
