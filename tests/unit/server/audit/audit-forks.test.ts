import { afterAll, describe, expect, it } from 'vitest';
import { asc, sql } from 'drizzle-orm';
import { appendAudit, auditRowHash, GENESIS_HASH } from '../../../../server/audit/audit-trail';
import { verifyAuditRows } from '../../../../server/audit/verify-audit-rows';
import type { Db } from '../../../../server/db/database';
import { pgErrorCode, UNIQUE_VIOLATION } from '../../../../server/db/errors';
import { auditLog } from '../../../../server/db/schema';
import { enginesMigratedTo } from '../../../helpers/migrated-to';

// Issue 30: before appends were serialised, concurrent writers forked the trail (two rows linking to one predecessor).
// Migration 0019 keeps such a trail as it is and makes the database refuse any new fork; the export names each old fork.
const { engines, cleanup } = await enginesMigratedTo('0018_list-counts-and-indexes');
afterAll(cleanup);

const actor = { id: '3f2504e0-4f89-41d3-9a0c-0305e82c3301', name: 'Ann Analyst' };
const clock = { now: () => new Date('2026-11-22T10:00:00.000Z') };

/** Writes a row linking to `prevHash` as an unserialised writer did, hashed like every row. */
async function rowAfter(db: Db, prevHash: string, entityId: string): Promise<string> {
  const row = { at: clock.now(), userId: actor.id, userName: actor.name, entity: 'laboratories', entityId, action: 'Added', caseId: null, organizationId: null, before: null, after: { name: entityId }, prevHash };
  const hash = auditRowHash(row);
  await db.insert(auditLog).values({ ...row, hash });
  return hash;
}

/** Row 1, then rows 2 and 3 both after row 1 (the fork), then rows after row 3 as the last writer saw it; then migrated. */
async function forkedTrail(database: Awaited<ReturnType<(typeof engines)[number]['open']>>, after = 1): Promise<void> {
  const first = await rowAfter(database.db, GENESIS_HASH, 'Lab 1');
  await rowAfter(database.db, first, 'Lab 2');
  let last = await rowAfter(database.db, first, 'Lab 3');
  for (let i = 0; i < after; i++) last = await rowAfter(database.db, last, `Lab ${4 + i}`);
  await database.migrate();
}

const allRows = (db: Db) => db.select().from(auditLog).orderBy(asc(auditLog.seq));
const withGuardOff = async (db: Db, change: ReturnType<typeof sql>) => {
  await db.execute(sql`alter table audit_log disable trigger audit_log_append_only`);
  await db.execute(change);
  await db.execute(sql`alter table audit_log enable trigger audit_log_append_only`);
};

describe('a trail forked before the fix (migration 0019)', () => {
  it.each(engines)('names each fork, refuses a new one and still fails on a changed or missing row, on $name', async ({ open }) => {
    const database = await open();
    try {
      const { db } = database;
      await forkedTrail(database);

      const verdict = await verifyAuditRows(db, await allRows(db));
      expect(verdict).toMatchObject({ intact: true, brokenAt: null, forks: [{ predecessor: 1, rows: [2, 3] }] });
      expect(verdict.text).toBe(
        'Verified: 4 rows, chain intact, no row changed or missing; it forks once (rows written at the same moment before the trail refused forks): rows 2 and 3 both follow row 1',
      );

      // The database itself now refuses a second row after the same predecessor.
      const last = (await allRows(db)).at(-1)!;
      await rowAfter(db, last.hash, 'Lab 8');
      const refused = await rowAfter(db, last.hash, 'Lab 9').then(() => 'added', (e: unknown) => pgErrorCode(e));
      expect(refused).toBe(UNIQUE_VIOLATION);
      // An append under the lock follows the last row, as ever.
      await db.transaction((tx) => appendAudit(tx as unknown as Db, actor, clock, { entity: 'laboratories', entityId: 'Lab 7', action: 'Added' }));
      expect((await verifyAuditRows(db, await allRows(db))).forks).toHaveLength(1);

      // A changed row still fails verification, named as changed, not as a fork.
      await withGuardOff(db, sql`update audit_log set user_name = 'Someone Else' where seq = 4`);
      expect(await verifyAuditRows(db, await allRows(db))).toMatchObject({ intact: false, brokenAt: 4, problem: 'content' });
    } finally {
      await database.close();
    }
  });

  it.each(engines)('fails on a row removed from a forked trail, on $name', async ({ open }) => {
    const database = await open();
    try {
      const { db } = database;
      await forkedTrail(database, 2);
      await withGuardOff(db, sql`delete from audit_log where seq = 4`);
      const verdict = await verifyAuditRows(db, await allRows(db));
      expect(verdict).toMatchObject({ intact: false, brokenAt: 5, problem: 'link' });
      expect(verdict.text).toMatch(/^NOT VERIFIED: the chain breaks at row 5: it does not follow the row before it/);
    } finally {
      await database.close();
    }
  });
});
