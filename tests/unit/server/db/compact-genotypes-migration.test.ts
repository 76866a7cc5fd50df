import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Db } from '../../../../server/db/database';
import { readMarkerValues } from '../../../../server/http/profiles/marker-values';
import { encodeGenotype } from '../../../../server/db/genotype-codec';
import { profilesUsingMarker } from '../../../../server/http/markers/marker-uses';

const markerIdsByName = async (db: Db) => new Map(((await db.execute(sql`select id, name from markers`)) as unknown as { rows: { id: string; name: string }[] }).rows.map((m) => [m.name, m.id]));
import { enginesMigratedTo } from '../../../helpers/migrated-to';
import { rawCaseRows } from '../../../helpers/raw-rows';

const { engines, cleanup } = await enginesMigratedTo('0007_profile_imports');
afterAll(cleanup);

const rows = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** Marker values as they stand in profile_markers before 0008: [marker name, alleles] in `position` order. */
const PROFILES: Record<string, [string, string[]][]> = {
  // A single-source GlobalFiler-like profile, microvariants, an off-ladder and a range marking.
  single: [
    ['D3S1358', ['15', '16']],
    ['vWA', ['14', '17.3']],
    ['D16S539', ['9', '9.1']],
    ['Amelogenin', ['X', 'Y']],
    ['FGA', ['22.2', '50.2']],
    ['TH01', ['9.3', 'OL']],
    ['SE33', ['<8', '>21']],
    ['D21S11', ['60', '61', '0']],
    ['D18S51', ['13.4', '13.9', '7']],
  ],
  // A mixture: six alleles at a marker.
  mixture: [
    ['D3S1358', ['12', '13', '14', '15', '16', '17']],
    ['vWA', ['14']],
    ['Amelogenin', ['X']],
  ],
  // Y-STR with multi-copy markers and a marker outside the kit (DYS999 is in no chemistry).
  ystr: [
    ['DYS456', ['15']],
    ['DYS385', ['13', '14']],
    ['DYF387S1', ['35', '37', '38']],
    ['DYS999', ['12.2']],
    ['DYS448', ['19']],
  ],
  // No marker values at all.
  empty: [],
};

describe('migration 0008: compact genotypes', () => {
  it.each(engines)('converts every profile_markers row into profiles.genotype on $name, nothing lost', async ({ open }) => {
    const database = await open();
    try {
      const { db } = database;
      const { one, orgId, caseId, chemistryId, addChemistry } = await rawCaseRows(db);
      const autosomal = { id: chemistryId };
      const ystr = { id: await addChemistry('Yfiler Plus', 'YStr') };
      // 250 markers no profile holds, made first: the profiles' markers get codes 251 and up, some above 255
      // (two-byte codes) and some not.
      await db.execute(sql`insert into markers (name, kind, created_at) select 'Filler ' || g, 'Autosomal', now() - interval '1 day' from generate_series(1, 250) g`);
      const names = [...new Set(Object.values(PROFILES).flatMap((values) => values.map(([name]) => name)))];
      const markerIds = new Map<string, string>();
      for (const [i, name] of names.entries()) {
        const kind = name.startsWith('DY') ? 'YStr' : 'Autosomal';
        const multi = name === 'DYS385' || name === 'DYF387S1';
        // Creation times a second apart: PGlite's clock can give two inserts the same instant, and codes follow creation.
        markerIds.set(name, (await one<{ id: string }>(sql`insert into markers (name, kind, multi_copy, created_at) values (${name}, ${kind}, ${multi}, now() + ${i} * interval '1 second') returning id`)).id);
      }
      // The kits: every marker but DYS999.
      for (const [position, name] of names.filter((n) => n !== 'DYS999').entries()) {
        await db.execute(sql`insert into chemistry_markers (chemistry_id, marker_id, position) values (${name.startsWith('DY') ? ystr.id : autosomal.id}, ${markerIds.get(name)}, ${position})`);
      }
      const profileIds = new Map<string, string>();
      for (const [profileName, values] of Object.entries(PROFILES)) {
        const kind = profileName === 'ystr' ? 'YStr' : 'Autosomal';
        const profile = await one<{ id: string }>(sql`
          insert into profiles (profile_id, case_id, organization_id, kind, chemistry_id, sample_type, status)
          values (${profileName}, ${caseId}, ${orgId}, ${kind}, ${kind === 'YStr' ? ystr.id : autosomal.id}, ${profileName === 'mixture' ? 'Forensic Mixture' : 'Reference'}, 'approved')
          returning id`);
        profileIds.set(profileName, profile.id);
        // Inserted out of order: the position, not the insertion, gives the stored order.
        const ordered = values.map((v, position) => ({ v, position })).reverse();
        for (const { v: [name, alleles], position } of ordered) {
          await db.execute(sql`insert into profile_markers (profile_id, marker_id, alleles, position) values (${profile.id}, ${markerIds.get(name)}, ${sql.raw(`ARRAY[${alleles.map((a) => `'${a}'`).join(',')}]::text[]`)}, ${position * 10})`);
        }
      }

      await database.migrate();

      for (const [profileName, values] of Object.entries(PROFILES)) {
        const read = await readMarkerValues(db, profileIds.get(profileName)!);
        expect(read, profileName).toEqual(values.map(([name, alleles]) => ({ markerId: markerIds.get(name), marker: name, alleles })));
      }
      // The SQL in the migration writes exactly the bytes the codec writes.
      const codeOf = new Map(rows<{ name: string; code: number }>(await db.execute(sql`select name, code from markers`)).map((m) => [m.name, m.code]));
      for (const [profileName, values] of Object.entries(PROFILES)) {
        const stored = await one<{ genotype: Uint8Array }>(sql`select genotype from profiles where id = ${profileIds.get(profileName)}`);
        expect(Buffer.from(stored.genotype).toString('hex'), profileName).toBe(Buffer.from(encodeGenotype(values.map(([name, alleles]) => ({ code: codeOf.get(name)!, alleles })))).toString('hex'));
      }
      const tables = rows<{ table_name: string }>(await db.execute(sql`select table_name from information_schema.tables where table_schema = 'public' and table_name = 'profile_markers'`));
      expect(tables).toEqual([]);
      // Codes were given to the existing markers, unique, and a new marker gets the next one.
      const codes = rows<{ code: number }>(await db.execute(sql`select code from markers order by code`)).map((r) => r.code);
      expect(codes).toEqual([...names, ...Array.from({ length: 250 })].map((_, i) => i + 1));
      expect(codeOf.get('D3S1358')).toBe(251);
      expect(Math.max(...codeOf.values())).toBeGreaterThan(255);
      const added = await one<{ code: number }>(sql`insert into markers (name, kind) values ('Penta E', 'Autosomal') returning code`);
      expect(added.code).toBe(names.length + 251);
      // Both widths of the code list were written, and "profiles holding this marker" reads either.
      expect(Buffer.from((await one<{ genotype: Uint8Array }>(sql`select genotype from profiles where id = ${profileIds.get('single')}`)).genotype)[0]).toBeGreaterThanOrEqual(128);
      expect(Buffer.from((await one<{ genotype: Uint8Array }>(sql`select genotype from profiles where id = ${profileIds.get('mixture')}`)).genotype)[0]).toBe(3);
      const ids = await markerIdsByName(db);
      expect(await profilesUsingMarker(db, ids.get('vWA')!)).toEqual({ names: ['mixture', 'single'], total: 2 });
      expect(await profilesUsingMarker(db, ids.get('DYS999')!)).toEqual({ names: ['ystr'], total: 1 });
      expect(await profilesUsingMarker(db, ids.get('Filler 7')!)).toEqual({ names: [], total: 0 });
    } finally {
      await database.close();
    }
  });
});
