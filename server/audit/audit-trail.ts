import { createHash } from 'node:crypto';
import { asc, desc, sql } from 'drizzle-orm';
import type { Clock } from '../clock';
import type { Db } from '../db/database';
import { auditLog } from '../db/schema';
import { canonicalJson, plainJson } from './canonical-json';
import { yieldToEventLoop } from '../jobs/yield';

/** Who made a write, as the trail records it (kept as text: the trail outlives deleted users). */
export interface AuditActor {
  /** Null for the instance itself (the upload sender recording what the upper instance answered). */
  id: string | null;
  name: string;
}

/** One write to record: what changed, on which record, with its state before and after. */
export interface AuditEvent {
  entity: string;
  entityId: string;
  action: string;
  caseId?: string | null;
  organizationId?: string | null;
  before?: unknown;
  after?: unknown;
}

/** Hash of the chain before its first row. */
export const GENESIS_HASH = '0'.repeat(64);

// Any fixed 64-bit key: every writer of the trail takes the same transaction-scoped lock.
const AUDIT_LOCK_KEY = 7_415_362_011;

type AuditRow = typeof auditLog.$inferSelect;

/** SHA-256 over the previous row's hash and this row's content (ARCHITECTURE.md "Audit": tampering is detectable). */
export function auditRowHash(row: Omit<AuditRow, 'seq' | 'hash'>): string {
  const content = canonicalJson({
    prevHash: row.prevHash,
    at: row.at,
    userId: row.userId,
    userName: row.userName,
    entity: row.entity,
    entityId: row.entityId,
    action: row.action,
    caseId: row.caseId,
    organizationId: row.organizationId,
    before: row.before,
    after: row.after,
  });
  return createHash('sha256').update(content).digest('hex');
}

/** Audit rows hashed between two turns of the event loop. */
const YIELD_EVERY = 25;

/**
 * Appends rows to the audit trail. Call it inside the transaction of the write it records, so
 * both land or neither does; the lock orders concurrent writers so the chain has no forks.
 */
export async function appendAudit(tx: Db, actor: AuditActor, clock: Clock, ...events: AuditEvent[]): Promise<void> {
  if (events.length === 0) return;
  await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_LOCK_KEY})`);
  const [last] = await tx.select({ hash: auditLog.hash }).from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
  let prevHash = last?.hash ?? GENESIS_HASH;
  const at = clock.now();
  const rows: (typeof auditLog.$inferInsert)[] = [];
  for (const [i, event] of events.entries()) {
    // Hashing an import's snapshots: other requests get a turn every 25 rows (a batch of 100 hashed in one go held
    // the event loop 20-45 ms, and a health probe waited for it on top of the statement under way: issue 29).
    if (i > 0 && i % YIELD_EVERY === 0) await yieldToEventLoop();
    const row = {
      at,
      userId: actor.id,
      userName: actor.name,
      entity: event.entity,
      entityId: event.entityId,
      action: event.action,
      caseId: event.caseId ?? null,
      organizationId: event.organizationId ?? null,
      before: plainJson(event.before ?? null),
      after: plainJson(event.after ?? null),
      prevHash,
    };
    const hash = auditRowHash(row);
    rows.push({ ...row, hash });
    prevHash = hash;
  }
  if (rows.length === 1) {
    await tx.insert(auditLog).values(rows[0]!);
    return;
  }
  // An import adds thousands of rows at once: the database reads them from one JSON parameter, in chain
  // order (seq follows the ordinality), instead of the driver binding thirteen parameters per row.
  for (let i = 0; i < rows.length; i += AUDIT_ROWS_PER_INSERT) {
    const json = JSON.stringify(rows.slice(i, i + AUDIT_ROWS_PER_INSERT));
    await tx.execute(sql`
      insert into audit_log (at, user_id, user_name, entity, entity_id, action, case_id, organization_id, before, after, prev_hash, hash)
      select r.at, r."userId", r."userName", r.entity, r."entityId", r.action, r."caseId", r."organizationId", r.before, r.after, r."prevHash", r.hash
      from rows from (jsonb_to_recordset(${json}::jsonb) as (at timestamptz, "userId" uuid, "userName" text, entity text, "entityId" text, action text, "caseId" uuid, "organizationId" uuid, before jsonb, after jsonb, "prevHash" text, hash text))
        with ordinality as r(at, "userId", "userName", entity, "entityId", action, "caseId", "organizationId", before, after, "prevHash", hash, n)
      order by r.n`);
  }
}

/** Audit rows per INSERT (one JSON parameter each). */
const AUDIT_ROWS_PER_INSERT = 100;

/** Where the chain breaks: the first row whose link or hash does not hold, or null when it is intact. */
export async function verifyAuditChain(db: Db): Promise<{ rows: number; brokenAt: number | null }> {
  const rows = await db.select().from(auditLog).orderBy(asc(auditLog.seq));
  let prevHash = GENESIS_HASH;
  for (const row of rows) {
    if (row.prevHash !== prevHash || auditRowHash(row) !== row.hash) return { rows: rows.length, brokenAt: row.seq };
    prevHash = row.hash;
  }
  return { rows: rows.length, brokenAt: null };
}
