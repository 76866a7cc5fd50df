import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendAudit, GENESIS_HASH, verifyAuditChain } from '../../../../server/audit/audit-trail';
import type { Database } from '../../../../server/db/database';
import { auditLog } from '../../../../server/db/schema';
import { freshPglite } from '../../../helpers/database';

let database: Database;
const clock = { now: () => new Date('2026-11-22T10:00:00.000Z') };
const actor = { id: '3f2504e0-4f89-41d3-9a0c-0305e82c3301', name: 'Ann Analyst' };

beforeAll(async () => {
  database = await freshPglite();
});
afterAll(() => database.close());

describe('the audit trail', () => {
  it('chains each row to the one before it, starting from the genesis hash', async () => {
    const db = database.db;
    await db.transaction(async (tx) => {
      await appendAudit(tx as never, actor, clock, { entity: 'Case', entityId: 'c1', action: 'Added', after: { caseNumber: '2026-1', at: new Date('2026-01-01T00:00:00Z') } });
      await appendAudit(tx as never, actor, clock, { entity: 'Case', entityId: 'c1', action: 'Edited', before: { caseNumber: '2026-1' }, after: { caseNumber: '2026-2' } });
    });
    const rows = await db.select().from(auditLog).orderBy(auditLog.seq);
    expect(rows[0]!.prevHash).toBe(GENESIS_HASH);
    expect(rows[1]!.prevHash).toBe(rows[0]!.hash);
    // Dates are stored as the text that was hashed.
    expect(rows[0]!.after).toEqual({ caseNumber: '2026-1', at: '2026-01-01T00:00:00.000Z' });
    expect(await verifyAuditChain(db)).toEqual({ rows: 2, brokenAt: null });
  });

  it('refuses to update or delete a row', async () => {
    // Drizzle wraps the database error; its cause carries PostgreSQL's message.
    const failure = (query: Promise<unknown>) => query.then(() => 'succeeded', (e: Error & { cause?: Error }) => e.cause?.message ?? e.message);
    expect(await failure(database.db.execute(sql`update audit_log set action = 'Nothing happened'`))).toMatch(/never updated or deleted/);
    expect(await failure(database.db.execute(sql`delete from audit_log`))).toMatch(/never updated or deleted/);
  });

  it('detects a row changed behind its back (with the guard switched off)', async () => {
    const db = database.db;
    await db.execute(sql`alter table audit_log disable trigger audit_log_append_only`);
    const [first] = await db.select().from(auditLog).orderBy(auditLog.seq).limit(1);
    await db.execute(sql`update audit_log set user_name = 'Someone Else' where seq = ${first!.seq}`);
    await db.execute(sql`alter table audit_log enable trigger audit_log_append_only`);
    expect(await verifyAuditChain(db)).toEqual({ rows: 2, brokenAt: first!.seq });
  });

  it('lets the event loop turn every 25 rows while it hashes a batch of 100 (a health probe does not wait for the whole batch)', async () => {
    // Each row's snapshot says when it is read (hashing it); a chain of immediates notes which row was last read each
    // time the event loop turned.
    let reading = -1;
    const events = Array.from({ length: 100 }, (_, i) => ({
      entity: 'Profile',
      entityId: `p${i}`,
      action: 'Imported',
      after: Object.defineProperty({}, 'row', { enumerable: true, get: () => ((reading = i), i) }),
    }));
    const turns = new Set<number>();
    let hashing = true;
    const tick = () => {
      turns.add(reading);
      if (hashing) setImmediate(tick);
    };
    setImmediate(tick);
    await database.db.transaction((tx) => appendAudit(tx as never, actor, clock, ...events));
    hashing = false;
    // Turns after rows 24, 49 and 74: before, the 100 rows were hashed without one.
    expect([...turns].filter((r) => r >= 0 && r < 99)).toEqual(expect.arrayContaining([24, 49, 74]));
  });
});
