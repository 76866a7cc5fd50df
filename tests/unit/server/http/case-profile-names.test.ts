import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../../../server/db/database';
import { caseProfileNamesHeld, lockCaseProfileNames } from '../../../../server/http/profiles/case-profile-names';
import { databaseEngines } from '../../../helpers/database';
import { rawCaseRows } from '../../../helpers/raw-rows';

const engines = await databaseEngines();

describe.each(engines)('a sample name once per case, kept by a lock per case, on $name', ({ open }) => {
  it('lets only one of two concurrent adds of the same name (any letter case) into a case through; another case may hold it', async () => {
    const database = await open();
    try {
      const { db } = database;
      const { one, orgId, caseId: c1, addCase, chemistryId } = await rawCaseRows(db);
      const c2 = await addCase('C-2');
      /** As the add routes do: lock, check, then (after a pause in which an unlocked rival would check too) insert. */
      const add = (caseId: string, name: string) =>
        db.transaction(async (tx) => {
          const t = tx as unknown as Db;
          const held = await lockCaseProfileNames(t, caseId, [name]);
          if (held.length > 0) return `refused: ${held.join(', ')}`;
          await t.execute(sql`select pg_sleep(0.3)`);
          await t.execute(sql`insert into profiles (profile_id, case_id, organization_id, kind, chemistry_id, sample_type) values (${name}, ${caseId}, ${orgId}, 'Autosomal', ${chemistryId}, 'Reference')`);
          return 'added';
        });
      const outcomes = await Promise.all([add(c1, 'S-1'), add(c1, 's-1')]);
      expect([...outcomes].sort()).toEqual(['added', expect.stringMatching(/^refused: S-1$|^refused: s-1$/)]);
      expect(await add(c2, 'S-1')).toBe('added');
      const counted = await one<{ n: number }>(sql`select count(*)::int as n from profiles where lower(profile_id) = 's-1'`);
      expect(counted.n).toBe(2);
      expect(await caseProfileNamesHeld(db, c1, ['S-1', 'S-2', 'S-1'])).toHaveLength(1);
      expect(await caseProfileNamesHeld(db, c1, [])).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
