import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { enginesMigratedTo } from '../../../helpers/migrated-to';
import { rawCaseRows, rowsOf } from '../../../helpers/raw-rows';

const { engines, cleanup } = await enginesMigratedTo('0009_list_search_indexes');
afterAll(cleanup);


/** Profiles as they stand before 0010, kind, sample type and status as text: every status, kinds and awkward names. */
const BEFORE = [
  { name: 'P-1', kind: 'Autosomal', sampleType: 'Convicted Offender', status: 'approved' },
  { name: 'P-2', kind: 'Autosomal', sampleType: 'Unidentified Human (Remains)', status: 'pending' },
  { name: 'P-3', kind: 'YStr', sampleType: 'Forensic, Unknown', status: 'rejected' },
  { name: 'P-4', kind: 'Autosomal', sampleType: 'Forensic Mixture', status: 'approved' },
];

describe('migrations 0010 and 0011: time-ordered ids, profile enums, ascending list indexes, names by case lock', () => {
  it.each(engines)('keeps every profile as it was on $name, and new rows get ascending version 7 ids', async ({ open }) => {
    const database = await open();
    try {
      const { db } = database;
      const { one, orgId, caseId, addCase, chemistryId } = await rawCaseRows(db);
      const before = new Map<string, { id: string; genotype: string }>();
      for (const p of BEFORE) {
        const row = await one<{ id: string; genotype: Uint8Array }>(sql`
          insert into profiles (profile_id, case_id, organization_id, kind, chemistry_id, sample_type, status, genotype)
          values (${p.name}, ${caseId}, ${orgId}, ${p.kind}, ${chemistryId}, ${p.sampleType}, ${p.status}, '\\x0102030405'::bytea) returning id, genotype`);
        before.set(p.name, { id: row.id, genotype: Buffer.from(row.genotype).toString('hex') });
      }

      await database.migrate();

      const after = rowsOf<{ id: string; profile_id: string; kind: string; sample_type: string; status: string; genotype: Uint8Array }>(
        await db.execute(sql`select id, profile_id, kind::text, sample_type::text, status::text, genotype from profiles order by profile_id`),
      );
      expect(after.map((r) => ({ name: r.profile_id, kind: r.kind, sampleType: r.sample_type, status: r.status }))).toEqual(BEFORE);
      for (const r of after) expect({ id: r.id, genotype: Buffer.from(r.genotype).toString('hex') }).toEqual(before.get(r.profile_id));
      const types = rowsOf<{ column_name: string; udt_name: string }>(
        await db.execute(sql`select column_name, udt_name from information_schema.columns where table_name = 'profiles' and column_name in ('kind', 'sample_type', 'status') order by column_name`),
      );
      expect(types).toEqual([
        { column_name: 'kind', udt_name: 'profile_kind' },
        { column_name: 'sample_type', udt_name: 'sample_type' },
        { column_name: 'status', udt_name: 'profile_status' },
      ]);
      // A value outside the set is refused by the database itself, and a new profile is pending by default.
      await expect(db.execute(sql`update profiles set status = 'archived' where profile_id = 'P-1'`)).rejects.toThrow();
      const added = await one<{ id: string; status: string }>(sql`
        insert into profiles (profile_id, case_id, organization_id, kind, chemistry_id, sample_type)
        values ('P-5', ${caseId}, ${orgId}, 'Autosomal', ${chemistryId}, 'Reference') returning id, status::text`);
      expect(added.status).toBe('pending');

      // New ids, here of cases made one after another, are RFC 9562 version 7 (variant 10) and ascend.
      const made: string[] = [added.id];
      for (let i = 0; i < 20; i++) made.push(await addCase(`T-${i}`));
      for (const id of made) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect([...made.slice(1)].sort()).toEqual(made.slice(1));
      // So do 500 made by one statement, within a few milliseconds (an import's batch).
      const batch = rowsOf<{ id: string }>(
        await db.execute(sql`insert into case_types (name) select 'Type ' || lpad(g::text, 3, '0') from generate_series(1, 500) g order by g returning id`),
      ).map((r) => r.id);
      expect(batch).toHaveLength(500);
      expect([...batch].sort()).toEqual(batch);
      // The first 48 bits are the time of creation in Unix milliseconds.
      const now = await one<{ ms: string }>(sql`select floor(extract(epoch from clock_timestamp()) * 1000)::bigint::text as ms`);
      const stamped = Number.parseInt(made.at(-1)!.replaceAll('-', '').slice(0, 12), 16);
      expect(Number(now.ms) - stamped).toBeGreaterThanOrEqual(0);
      expect(Number(now.ms) - stamped).toBeLessThan(60_000);

      // The list indexes are ascending throughout (read backwards for newest or strongest first).
      const indexes = rowsOf<{ indexname: string; indexdef: string }>(
        await db.execute(sql`select indexname, indexdef from pg_indexes where indexname in ('profiles_list_updated_idx', 'hits_list_strength_idx', 'hits_list_status_strength_idx') order by indexname`),
      );
      expect(indexes.map((i) => i.indexname)).toEqual(['hits_list_status_strength_idx', 'hits_list_strength_idx', 'profiles_list_updated_idx']);
      for (const i of indexes) expect(i.indexdef).not.toMatch(/DESC/);
      // 0011: the case's profiles by case alone; names once per case by lock (tests/unit/server/http/case-profile-names.test.ts).
      const profileIndexes = rowsOf<{ indexname: string }>(await db.execute(sql`select indexname from pg_indexes where tablename = 'profiles' order by indexname`)).map((i) => i.indexname);
      expect(profileIndexes).toContain('profiles_case_idx');
      expect(profileIndexes).not.toContain('profiles_case_profile_unique');
    } finally {
      await database.close();
    }
  });
});
