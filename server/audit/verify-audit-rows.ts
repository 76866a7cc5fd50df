import { and, asc, gte, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { auditLog } from '../db/schema';
import { auditRowHash, GENESIS_HASH } from './audit-trail';

type AuditRow = typeof auditLog.$inferSelect;

/** The hash chain checked over the rows of an export (issue 18): intact, or where and why it breaks. */
export interface AuditVerification {
  rows: number;
  intact: boolean;
  /** The first row (by seq) where the chain does not hold; null when intact. */
  brokenAt: number | null;
  /** Why it breaks there; null when intact. */
  problem: 'content' | 'link' | null;
  /** The verdict as the CSV and PDF print it. */
  text: string;
}

/**
 * Verifies `rows` (any subset of the trail, e.g. one case's): each row's content must still hash to its
 * stored hash, and the chain must link from the row before the first of them to the row after the last, so
 * a row changed, removed or slipped in anywhere in between shows. The links are compared in the database
 * (no content is read for rows outside the export); the contents of the exported rows are rehashed here.
 */
export async function verifyAuditRows(db: Db, rows: readonly AuditRow[]): Promise<AuditVerification> {
  const ordered = [...rows].sort((a, b) => a.seq - b.seq);
  const breaks: { seq: number; problem: 'content' | 'link' }[] = [];
  for (const row of ordered) {
    if (auditRowHash(row) !== row.hash) {
      breaks.push({ seq: row.seq, problem: 'content' });
      break;
    }
  }
  if (ordered.length > 0) {
    const first = ordered[0]!.seq;
    const last = ordered.at(-1)!.seq;
    // The row before the first (its hash is the first's link) and the row after the last (its link is the last's hash).
    const [bounds] = await db
      .select({
        start: sql<number>`coalesce((select max(seq) from audit_log where seq < ${first}), 0)`.mapWith(Number),
        end: sql<number>`coalesce((select min(seq) from audit_log where seq > ${last}), ${last})`.mapWith(Number),
      })
      .from(sql`(select 1) as one`);
    const span = db
      .select({ seq: auditLog.seq, prevHash: auditLog.prevHash, before: sql<string | null>`lag(${auditLog.hash}) over (order by ${auditLog.seq})`.as('before') })
      .from(auditLog)
      .where(and(gte(auditLog.seq, bounds!.start), lte(auditLog.seq, bounds!.end)))
      .as('span');
    const [broken] = await db
      .select({ seq: span.seq })
      .from(span)
      .where(and(gte(span.seq, first), sql`${span.prevHash} is distinct from coalesce(${span.before}, ${GENESIS_HASH})`))
      .orderBy(asc(span.seq))
      .limit(1);
    if (broken) breaks.push({ seq: broken.seq, problem: 'link' });
  }
  const firstBreak = breaks.sort((a, b) => a.seq - b.seq)[0];
  if (!firstBreak) return { rows: ordered.length, intact: true, brokenAt: null, problem: null, text: `Verified: ${ordered.length} ${ordered.length === 1 ? 'row' : 'rows'}, chain intact` };
  const exported = ordered.some((r) => r.seq === firstBreak.seq);
  const why =
    firstBreak.problem === 'content'
      ? 'its content no longer matches its hash (the row was changed after it was written)'
      : 'it does not follow the row before it (a row was removed, inserted or changed before it)';
  return {
    rows: ordered.length,
    intact: false,
    brokenAt: firstBreak.seq,
    problem: firstBreak.problem,
    text: `NOT VERIFIED: the chain breaks at row ${firstBreak.seq}${exported ? '' : ' (a row outside this export)'}: ${why}`,
  };
}
