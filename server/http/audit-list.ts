import { count, sql, type SQL } from 'drizzle-orm';
import type { AuditEntry } from '../../core/schemas/audit';
import type { ListQuery } from '../../core/schemas/list';
import type { Db } from '../db/database';
import { auditLog } from '../db/schema';
import { toAuditEntries } from '../audit/audit-entries';
import type { AuditReader } from '../audit/audit-names';
import { listClauses } from './list';

const COLUMNS = {
  at: { expr: auditLog.seq, sortable: true },
  userName: { expr: sql`lower(${auditLog.userName})`, sortable: true, searchable: true },
  entity: { expr: auditLog.entity, sortable: true, searchable: true },
  action: { expr: auditLog.action, sortable: true, searchable: true },
};

/** A page of audit rows matching `scope` (a case's, a profile's, a period's), newest first unless sorted otherwise, named for `reader`. */
export async function listAudit(db: Db, query: ListQuery, scope: SQL, reader: AuditReader): Promise<{ items: AuditEntry[]; count: number }> {
  const clauses = listClauses(query, COLUMNS, { scope, defaultSort: 'at:desc', tiebreak: auditLog.seq });
  const rows = await db.select().from(auditLog).where(clauses.where).orderBy(...clauses.orderBy).limit(clauses.limit).offset(clauses.offset);
  const [total] = await db.select({ n: count() }).from(auditLog).where(clauses.where);
  return { items: await toAuditEntries(db, rows, reader), count: total?.n ?? 0 };
}
