import { recordNameOfRow } from '../../core/audit/readable-audit';
import type { AuditEntry } from '../../core/schemas/audit';
import type { Db } from '../db/database';
import type { auditLog } from '../db/schema';
import { namesOfRow, resolveAuditNames, type AuditReader } from './audit-names';

type AuditRow = typeof auditLog.$inferSelect;

/**
 * Trail rows as a reader needs them: each with its record's name (as the row itself recorded it, else as
 * the record is named now) and the names of the ids it holds that `reader` may read.
 */
export async function toAuditEntries(db: Db, rows: readonly AuditRow[], reader: AuditReader): Promise<AuditEntry[]> {
  const names = await resolveAuditNames(db, rows, reader);
  return rows.map((r) => ({
    seq: r.seq,
    at: r.at.toISOString(),
    userName: r.userName,
    entity: r.entity,
    entityId: r.entityId,
    recordName: recordNameOfRow(r.before, r.after) ?? names.get(r.entityId) ?? null,
    action: r.action,
    before: r.before,
    after: r.after,
    names: namesOfRow(r, names),
    hash: r.hash,
  }));
}
