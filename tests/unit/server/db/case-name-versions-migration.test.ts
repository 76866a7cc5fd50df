import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { enginesMigratedTo } from '../../../helpers/migrated-to';
import { rawCaseRows, rowsOf } from '../../../helpers/raw-rows';

// A database migrated up to 0029 (the upload backlog's counts) and then started again, as a laboratory's would be.
const { engines, cleanup } = await enginesMigratedTo('0029_backlog-counts');
afterAll(cleanup);

describe('migrations 0030 and 0031 on a database that had 0029: the outbox claim index, the case names versions', () => {
  it.each(engines)('applies both on $name, and the triggers count every insert into a case and every rename or move, nothing else', async ({ open }) => {
    const database = await open();
    try {
      const { db } = database;
      const { one, orgId, caseId, addCase, chemistryId } = await rawCaseRows(db);
      const other = await addCase('C-2');
      await database.migrate();
      // 0030's `when` lay before 0029's in the journal: drizzle's migrator runs only migrations later than the last
      // applied, so a database that had 0029 never got 0030 (or anything after it).
      const index = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from pg_indexes where indexname = 'upload_outbox_pending_id_idx'`));
      expect(index[0]!.n).toBe(1);
      const version = async (of: string) => rowsOf<{ version: string | number }>(await db.execute(sql`select version from case_name_versions where case_id = ${of}`)).map((r) => Number(r.version));
      expect(await version(caseId)).toEqual([]);
      const add = (names: string[], into: string) =>
        db.execute(sql`insert into profiles (profile_id, case_id, organization_id, kind, chemistry_id, sample_type)
          select n, ${into}::uuid, ${orgId}::uuid, 'Autosomal', ${chemistryId}::uuid, 'Reference' from unnest(${`{${names.join(',')}}`}::text[]) as n`);
      // One statement of three profiles: one change of the case's names.
      await add(['A-1', 'A-2', 'A-3'], caseId);
      expect(await version(caseId)).toEqual([1]);
      await add(['A-4'], caseId);
      expect(await version(caseId)).toEqual([2]);
      // A review changes no name: the case's row is not touched (nor locked).
      await db.execute(sql`update profiles set status = 'approved', comments = 'reviewed' where case_id = ${caseId}`);
      expect(await version(caseId)).toEqual([2]);
      // A rename counts in its case; a move counts in the case it went to.
      await db.execute(sql`update profiles set profile_id = 'A-1b' where profile_id = 'A-1'`);
      expect(await version(caseId)).toEqual([3]);
      await db.execute(sql`update profiles set case_id = ${other} where profile_id = 'A-2'`);
      expect(await version(caseId)).toEqual([3]);
      expect(await version(other)).toEqual([1]);
      // A case's row goes with the case.
      await db.execute(sql`delete from profiles where case_id = ${other}`);
      await db.execute(sql`delete from cases where id = ${other}`);
      expect(await version(other)).toEqual([]);
      expect((await one<{ n: number }>(sql`select count(*)::int as n from case_name_versions`)).n).toBe(1);
      // Applied twice: nothing runs again.
      await database.migrate();
      expect(await version(caseId)).toEqual([3]);
    } finally {
      await database.close();
    }
  });
});
