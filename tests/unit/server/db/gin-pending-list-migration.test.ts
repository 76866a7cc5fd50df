import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { enginesMigratedTo } from '../../../helpers/migrated-to';
import { rawCaseRows, rowsOf } from '../../../helpers/raw-rows';

// A database migrated up to 0031 and started again with 0032, as a laboratory's would be.
const { engines, cleanup } = await enginesMigratedTo('0031_case-name-versions');
afterAll(cleanup);

const TRIGRAM_INDEXES = ['profiles_profile_id_trgm_idx', 'cases_case_number_trgm_idx', 'physical_items_item_id_trgm_idx'];

describe('migration 0032: the trigram indexes without a pending list (issue 29)', () => {
  it.each(engines)('merges what was pending and takes later profiles into the index at once, on $name', async ({ open }) => {
    const database = await open();
    try {
      const { db } = database;
      const { orgId, caseId, chemistryId } = await rawCaseRows(db);
      const add = (names: string[]) =>
        db.execute(sql`insert into profiles (profile_id, case_id, organization_id, kind, chemistry_id, sample_type)
          select n, ${caseId}::uuid, ${orgId}::uuid, 'Autosomal', ${chemistryId}::uuid, 'Reference' from unnest(${`{${names.join(',')}}`}::text[]) as n`);
      // Pages merged from the pending list into the index by the call (0: nothing was pending).
      const merged = async () => rowsOf<{ n: number }>(await db.execute(sql`select gin_clean_pending_list('profiles_profile_id_trgm_idx'::regclass)::int as n`))[0]!.n;
      await add(['PEND-1', 'PEND-2']);
      await database.migrate();
      // An import's insert that found the list full merged all of it, holding the connection (57-106 ms a batch on PGlite).
      expect(await merged()).toBe(0);
      await add(['LATER-1', 'LATER-2']);
      expect(await merged()).toBe(0);
      const options = rowsOf<{ relname: string; reloptions: string[] | string | null }>(
        await db.execute(sql`select relname, reloptions from pg_class where relname in ('profiles_profile_id_trgm_idx', 'cases_case_number_trgm_idx', 'physical_items_item_id_trgm_idx') order by relname`),
      );
      expect(options.map((o) => [o.relname, String(o.reloptions)])).toEqual([...TRIGRAM_INDEXES].sort().map((name) => [name, expect.stringContaining('fastupdate=off')]));
      // The search by name still finds profiles added before and after.
      const found = rowsOf<{ profile_id: string }>(await db.execute(sql`select profile_id from profiles where profile_id ilike '%END-%' or profile_id ilike '%ATER-%' order by profile_id`));
      expect(found.map((r) => r.profile_id)).toEqual(['LATER-1', 'LATER-2', 'PEND-1', 'PEND-2']);
    } finally {
      await database.close();
    }
  });
});
