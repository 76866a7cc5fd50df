import { and, asc, eq, gte, lt, lte, sql } from 'drizzle-orm';
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
  /**
   * Forks written before appends were serialised (issue 30): two intact rows linking to one predecessor. Each
   * is named, and does not break the chain: neither row was changed or removed.
   */
  forks: AuditFork[];
  /** The verdict as the CSV and PDF print it. */
  text: string;
}

/** Two rows (and any more) that follow the same row; `predecessor` 0 is the start of the trail. */
export interface AuditFork {
  predecessor: number;
  rows: number[];
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
  const forks: AuditFork[] = [];
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
    // A row that does not follow the row before it still holds when it follows an earlier intact row that another
    // row follows too (a fork); a link to no row at all is a row removed or changed.
    const unlinked = await db
      .select({ seq: span.seq, prevHash: span.prevHash })
      .from(span)
      .where(and(gte(span.seq, first), sql`${span.prevHash} is distinct from coalesce(${span.before}, ${GENESIS_HASH})`))
      .orderBy(asc(span.seq));
    for (const row of unlinked) {
      const fork = await forkAt(db, row);
      if (fork === 'no predecessor') {
        breaks.push({ seq: row.seq, problem: 'link' });
        break;
      }
      // A row further down a branch: it follows an earlier row that nothing else follows.
      if (fork === null) continue;
      const known = forks.find((f) => f.predecessor === fork.predecessor);
      if (known) known.rows = [...new Set([...known.rows, ...fork.rows])].sort((a, b) => a - b);
      else forks.push(fork);
    }
  }
  const firstBreak = breaks.sort((a, b) => a.seq - b.seq)[0];
  if (!firstBreak) return { rows: ordered.length, intact: true, brokenAt: null, problem: null, forks, text: verifiedText(ordered.length, forks) };
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
    forks,
    text: `NOT VERIFIED: the chain breaks at row ${firstBreak.seq}${exported ? '' : ' (a row outside this export)'}: ${why}`,
  };
}

/** The fork at the earlier row `row` links to (null when nothing else follows that row), or 'no predecessor' when it links to no earlier row. */
async function forkAt(db: Db, row: { seq: number; prevHash: string }): Promise<AuditFork | 'no predecessor' | null> {
  let predecessor = 0;
  if (row.prevHash !== GENESIS_HASH) {
    const [found] = await db.select({ seq: auditLog.seq }).from(auditLog).where(and(eq(auditLog.hash, row.prevHash), lt(auditLog.seq, row.seq))).limit(1);
    if (!found) return 'no predecessor';
    predecessor = found.seq;
  }
  const followers = await db.select({ seq: auditLog.seq }).from(auditLog).where(eq(auditLog.prevHash, row.prevHash)).orderBy(asc(auditLog.seq));
  return followers.length > 1 ? { predecessor, rows: followers.map((f) => f.seq) } : null;
}

function verifiedText(rows: number, forks: readonly AuditFork[]): string {
  const verified = `Verified: ${rows} ${rows === 1 ? 'row' : 'rows'}, chain intact`;
  if (forks.length === 0) return verified;
  const each = forks.map((f) => `rows ${f.rows.slice(0, -1).join(', ')} and ${f.rows.at(-1)} both follow ${f.predecessor === 0 ? 'the start of the trail' : `row ${f.predecessor}`}`);
  return `${verified}, no row changed or missing; it forks ${forks.length === 1 ? 'once' : `${forks.length} times`} (rows written at the same moment before the trail refused forks): ${each.join('; ')}`;
}
