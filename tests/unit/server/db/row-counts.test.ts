import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Db } from '../../../../server/db/database';
import { countedRows } from '../../../../server/db/row-counts';
import { enginesMigratedTo } from '../../../helpers/migrated-to';
import { rawCaseRows, rowsOf } from '../../../helpers/raw-rows';

// Issue 29: row_counts (migration 0018) is backfilled from the rows already there, then kept exact by triggers
// through every insert, delete, status change, move to another organization, rollback and truncate.
const { engines, cleanup } = await enginesMigratedTo('0017_case-parties-items-verbal-scale');
afterAll(cleanup);

/** Every (relation, organization, status) with rows, counted from the tables themselves. */
async function actual(db: Db) {
  return rowsOf<{ relation: string; organization_id: string; status: string; n: number }>(
    await db.execute(sql`select * from (
      select 'profiles' as relation, organization_id, status::text as status, count(*)::int as n from profiles group by 2, 3
      union all select 'hits', organization_id, status, count(*)::int from hits group by 2, 3
      union all select 'cases', organization_id, status, count(*)::int from cases group by 2, 3) t order by 1, 2, 3`),
  );
}
const counters = async (db: Db) =>
  rowsOf<{ relation: string; organization_id: string; status: string; n: number }>(
    await db.execute(sql`select relation, organization_id, status, n::int as n from row_counts where n <> 0 order by 1, 2, 3`),
  );

describe('row_counts (migration 0018)', () => {
  it.each(engines)('is backfilled and kept exact by every write on $name', async ({ open }) => {
    const database = await open();
    try {
      const { db } = database;
      const { one, orgId, caseId, caseTypeId, chemistryId } = await rawCaseRows(db);
      const group = await one<{ id: string }>(sql`insert into analysis_groups (name) values ('Kinship') returning id`);
      const analysis = await one<{ id: string }>(sql`insert into analyses (analysis_group_id, name, kind) values (${group.id}, 'Identity', 'Computational') returning id`);
      const addProfiles = (n: number, status: string, org = orgId, caseRef = caseId) =>
        db.execute(sql`insert into profiles (profile_id, case_id, organization_id, kind, chemistry_id, sample_type, status)
          select ${status} || '-' || g || '-' || md5(random()::text), ${caseRef}, ${org}, 'Autosomal', ${chemistryId}, 'Reference', ${status} from generate_series(1, ${n}) g`);
      const addHits = (n: number, status: string, org = orgId) =>
        db.execute(sql`insert into hits (organization_id, analysis_id, marker_count, status, dedupe_key)
          select ${org}, ${analysis.id}, 20, ${status}, md5(random()::text) from generate_series(1, ${n}) g`);
      await addProfiles(5, 'approved');
      await addProfiles(3, 'pending');
      await addHits(4, 'pending');
      await addHits(2, 'published');

      await database.migrate();
      expect(await counters(db)).toEqual(await actual(db));
      expect(await countedRows(db, 'profiles', [orgId], ['pending'])).toBe(3);

      const other = await one<{ id: string }>(sql`insert into organizations (name) values ('Other lab') returning id`);
      const otherCase = await one<{ id: string }>(sql`insert into cases (case_number, case_type_id, organization_id) values ('O-1', ${caseTypeId}, ${other.id}) returning id`);
      await addProfiles(7, 'pending', other.id, otherCase.id);
      await addHits(6, 'pending', other.id);
      expect(await counters(db)).toEqual(await actual(db));
      // Status changes, one row and many, and an update that changes neither.
      await db.execute(sql`update profiles set status = 'approved' where id = (select id from profiles where status = 'pending' and organization_id = ${orgId} limit 1)`);
      await db.execute(sql`update hits set status = case when status = 'pending' then 'rejected' else 'pending' end`);
      await db.execute(sql`update profiles set comments = 'seen'`);
      expect(await counters(db)).toEqual(await actual(db));
      // A case moved to another organization takes its profiles along (server/http/cases/crud-routes.ts).
      await db.execute(sql`update cases set organization_id = ${orgId} where id = ${otherCase.id}`);
      await db.execute(sql`update profiles set organization_id = ${orgId} where case_id = ${otherCase.id}`);
      expect(await counters(db)).toEqual(await actual(db));
      // A rolled-back write leaves the counts as they were.
      const before = await counters(db);
      await db
        .transaction(async (tx) => {
          await tx.execute(sql`delete from profiles where status = 'approved'`);
          expect(await countedRows(tx as unknown as Db, 'profiles', [orgId], ['approved'])).toBe(0);
          throw new Error('rolled back');
        })
        .catch((err: Error) => expect(err.message).toBe('rolled back'));
      expect(await counters(db)).toEqual(before);
      await db.execute(sql`delete from hits where status = 'rejected'`);
      await db.execute(sql`delete from profiles where status = 'pending'`);
      expect(await counters(db)).toEqual(await actual(db));
      expect(await countedRows(db, 'hits', 'all')).toBe((await actual(db)).filter((r) => r.relation === 'hits').reduce((n, r) => n + r.n, 0));
      await db.execute(sql`truncate hits cascade`);
      expect(await counters(db)).toEqual(await actual(db));
      expect(await countedRows(db, 'hits', 'all')).toBe(0);
    } finally {
      await database.close();
    }
  });
});
