import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '../../../../server/db/database';
import { ALL_ORGANIZATIONS } from '../../../../core/permissions';
import { listHits, organizationHitScope } from '../../../../server/http/hits/hit-query';
import { NAMED_ROWS_LIMIT, type ListTuning } from '../../../../server/http/list';
import { listProfiles, reachableProfileScope } from '../../../../server/http/profiles/list-routes';
import type { AuthenticatedUser } from '../../../../server/identity/load-principal';
import { databaseEngines } from '../../../helpers/database';

// Issue 15 "Lists": pages read by ids from one table, deep pages read from the end, counts estimated above a
// limit, search through indexes. Small thresholds let 130 profiles and 120 hits take every path.
const TUNING: ListTuning = { exactCountLimit: 20, deepPageRows: 14 };
const ORG_A = '00000000-0000-4000-8000-00000000000a';
const ORG_B = '00000000-0000-4000-8000-00000000000b';
const uuid = (prefix: string, n: number) => `${prefix}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const CASES = { A1: uuid('0000000c', 1), A2: uuid('0000000c', 2), B1: uuid('0000000c', 3) };
const ITEMS = { A1: uuid('0000000e', 1), A2: uuid('0000000e', 2), B1: uuid('0000000e', 3) };
const CHEM = { gf: uuid('000000c0', 1), id: uuid('000000c0', 2), yf: uuid('000000c0', 3) };
const SOURCE = { buccal: uuid('00000050', 1), blood: uuid('00000050', 2) };
const LAB = uuid('0000001a', 1);
const ANALYSIS = { identity: uuid('000000a1', 1), paternity: uuid('000000a1', 2), exclusion: uuid('000000a1', 3) };
const POP = { cauc: uuid('000000b0', 1), afr: uuid('000000b0', 2) };
const RULE = uuid('000000d0', 1);
const PROFILES = 130;
const HITS = 120;

interface SeedProfile {
  id: string;
  name: string;
  org: string;
  caseKey: keyof typeof CASES;
  kind: string;
  chem: keyof typeof CHEM;
  sampleType: string;
  source: keyof typeof SOURCE | null;
  item: boolean;
  lab: boolean;
  status: string;
}

const seedProfiles: SeedProfile[] = Array.from({ length: PROFILES }, (_, k) => {
  const i = k + 1;
  const org = i % 5 === 0 ? ORG_B : ORG_A;
  const caseKey = org === ORG_B ? 'B1' : i % 2 ? 'A1' : 'A2';
  const ystr = i % 7 === 0;
  return {
    id: uuid('00000001', i),
    name: `${['OFF', 'SUS', 'VIC'][i % 3]}-${String((i * 37) % 1000).padStart(4, '0')}`,
    org,
    caseKey,
    kind: ystr ? 'YStr' : 'Autosomal',
    chem: ystr ? 'yf' : i % 2 ? 'gf' : 'id',
    sampleType: i % 4 === 0 ? 'Convicted Offender' : i % 4 === 1 ? 'Arrestee' : 'Forensic Mixture',
    source: i % 3 === 0 ? null : i % 3 === 1 ? 'buccal' : 'blood',
    item: i % 4 === 0,
    lab: i % 2 === 0,
    status: i % 6 === 0 ? 'pending' : i % 11 === 0 ? 'rejected' : 'approved',
  };
});

interface SeedHit {
  id: string;
  org: string;
  analysis: keyof typeof ANALYSIS;
  population: keyof typeof POP | null;
  rule: boolean;
  status: string;
  profiles: [number, number];
}

const seedHits: SeedHit[] = Array.from({ length: HITS }, (_, k) => {
  const i = k + 1;
  const exclusion = i % 10 === 9;
  return {
    id: uuid('00000002', i),
    org: i % 5 === 0 ? ORG_B : ORG_A,
    analysis: exclusion ? 'exclusion' : i % 2 ? 'paternity' : 'identity',
    population: exclusion ? null : i % 3 === 0 ? 'afr' : 'cauc',
    rule: i % 2 === 0,
    status: i % 4 === 0 ? 'pending' : i % 4 === 1 ? 'rejected' : 'published',
    // Same-organization profiles: hit i names profiles i and i+5 (wrapping).
    profiles: [i, ((i + 4) % PROFILES) + 1],
  };
});

async function seed(db: Db) {
  await db.execute(sql`insert into organizations (id, name) values (${ORG_A}, 'Lab A'), (${ORG_B}, 'Lab B')`);
  await db.execute(sql`insert into case_types (id, name) values (${uuid('0000000f', 1)}, 'Offender')`);
  await db.execute(sql`insert into cases (id, case_number, case_type_id, organization_id) values
    (${CASES.A1}, 'A-2024-001', ${uuid('0000000f', 1)}, ${ORG_A}), (${CASES.A2}, 'A-2024-002', ${uuid('0000000f', 1)}, ${ORG_A}),
    (${CASES.B1}, 'B-77', ${uuid('0000000f', 1)}, ${ORG_B})`);
  await db.execute(sql`insert into physical_items (id, case_id, item_id) values
    (${ITEMS.A1}, ${CASES.A1}, 'Knife blade'), (${ITEMS.A2}, ${CASES.A2}, 'Shirt collar'), (${ITEMS.B1}, ${CASES.B1}, 'Glove')`);
  await db.execute(sql`insert into chemistries (id, name, kind) values
    (${CHEM.gf}, 'GlobalFiler', 'Autosomal'), (${CHEM.id}, 'Identifiler Plus', 'Autosomal'), (${CHEM.yf}, 'Yfiler Plus', 'YStr')`);
  await db.execute(sql`insert into sample_sources (id, name) values (${SOURCE.buccal}, 'Buccal swab'), (${SOURCE.blood}, 'Blood card')`);
  await db.execute(sql`insert into laboratories (id, name) values (${LAB}, 'Central Forensic Laboratory')`);
  for (const [n, p] of seedProfiles.entries()) {
    // Four update times only: many ties, broken by id.
    const at = new Date(Date.UTC(2025, 0, 1 + (n % 4))).toISOString();
    await db.execute(sql`insert into profiles (id, profile_id, case_id, organization_id, kind, chemistry_id, sample_type, sample_source_id, physical_item_id, laboratory_id, status, created_at, updated_at)
      values (${p.id}, ${p.name}, ${CASES[p.caseKey]}, ${p.org}, ${p.kind}, ${CHEM[p.chem]}, ${p.sampleType}, ${p.source ? SOURCE[p.source] : null},
        ${p.item ? ITEMS[p.caseKey] : null}, ${p.lab ? LAB : null}, ${p.status}, ${at}, ${at})`);
  }
  await db.execute(sql`insert into analysis_groups (id, name) values (${uuid('000000a0', 1)}, 'Kinship')`);
  await db.execute(sql`insert into analyses (id, analysis_group_id, name, kind) values
    (${ANALYSIS.identity}, ${uuid('000000a0', 1)}, 'Identity', 'Computational'), (${ANALYSIS.paternity}, ${uuid('000000a0', 1)}, 'Paternity', 'Computational'),
    (${ANALYSIS.exclusion}, ${uuid('000000a0', 1)}, 'Exclusion', 'Exclusion')`);
  await db.execute(sql`insert into populations (id, name) values (${POP.cauc}, 'Caucasian'), (${POP.afr}, 'African American')`);
  await db.execute(sql`insert into search_rules (id, name, searching_sample_types, searched_sample_types, analysis_id) values (${RULE}, 'Offender vs forensic', '{}', '{}', ${ANALYSIS.identity})`);
  for (const [n, h] of seedHits.entries()) {
    const exclusion = h.analysis === 'exclusion';
    // Five strengths and three dates: ties on the default sort's first two terms.
    const at = new Date(Date.UTC(2025, 1, 1 + (n % 3))).toISOString();
    await db.execute(sql`insert into hits (id, organization_id, analysis_id, population_id, combined_index, marker_count, non_exclusion_marker_count, status, dedupe_key, search_rule_id, created_at, updated_at)
      values (${h.id}, ${h.org}, ${ANALYSIS[h.analysis]}, ${h.population ? POP[h.population] : null}, ${exclusion ? null : 10 ** (n % 5)}, 21, ${exclusion ? n % 21 : null},
        ${h.status}, ${`k${n}`}, ${h.rule ? RULE : null}, ${at}, ${at})`);
    for (const [position, profile] of h.profiles.entries()) {
      await db.execute(sql`insert into hit_profiles (hit_id, role, position, profile_id) values (${h.id}, ${position ? 'Child' : 'Father'}, ${position}, ${uuid('00000001', profile)})`);
    }
  }
  await db.execute(sql`analyze`);
}

const orgUser = (organizationIds: string[]) => ({ scope: 'Organization', organizationIds }) as unknown as AuthenticatedUser;
const allUser = { scope: 'All', organizationIds: [] } as unknown as AuthenticatedUser;

const PROFILE_SORTS = ['profileId', 'caseNumber', 'kind', 'chemistryName', 'sampleType', 'sampleSourceName', 'physicalItemName', 'laboratoryName', 'status', 'createdAt', 'updatedAt'];
const HIT_SORTS = ['date', 'analysisName', 'probability', 'expectedChanceHits', 'searchRuleName', 'populationName', 'status', 'updatedAt'];

type Lister = (page: number, pageSize: number) => Promise<{ items: { id: string }[]; count: number; estimated?: true }>;

/** Every page of a list, in order, as the grid asks for them (and the same pages asked for backwards). */
async function pageThrough(list: Lister, pageSize: number) {
  const whole = await list(0, 500);
  const pages = Math.ceil(whole.items.length / pageSize);
  const forwards: string[] = [];
  for (let page = 0; page < pages; page++) forwards.push(...(await list(page, pageSize)).items.map((r) => r.id));
  const backwards: string[][] = [];
  for (let page = pages - 1; page >= 0; page--) backwards.unshift((await list(page, pageSize)).items.map((r) => r.id));
  return { whole: whole.items.map((r) => r.id), forwards, backwards: backwards.flat() };
}

const engines = await databaseEngines();

describe.each(engines)('lists at scale, on $name', ({ name, open }) => {
  let database: Database;
  beforeAll(async () => {
    database = await open();
    await seed(database.db);
  }, 120_000);
  afterAll(() => database.close());

  const profilesOf = (query: Record<string, unknown>, user = allUser, tuning = TUNING) =>
    listProfiles(database.db, { page: 0, pageSize: 500, ...query }, reachableProfileScope(user), tuning);
  const hitsOf = (query: Record<string, unknown>, user = allUser, status: 'pending' | 'published' | 'rejected' | null = null) =>
    listHits(database.db, { page: 0, pageSize: 500, ...query }, organizationHitScope(user, ALL_ORGANIZATIONS), status, TUNING);
  const ids = (result: { items: { id: string }[] }) => result.items.map((r) => r.id).sort();
  const expectedProfiles = (keep: (p: SeedProfile) => boolean) => seedProfiles.filter(keep).map((p) => p.id).sort();
  const expectedHits = (keep: (h: SeedHit) => boolean) => seedHits.filter(keep).map((h) => h.id).sort();

  it.each(PROFILE_SORTS.flatMap((field) => [`${field}:asc`, `${field}:desc`]))('pages profiles by %s: every row once, the same order in pages as whole', async (sort) => {
    const { whole, forwards, backwards } = await pageThrough((page, pageSize) => profilesOf({ sort, page, pageSize }), 9);
    expect(whole).toHaveLength(PROFILES);
    expect(new Set(whole).size).toBe(PROFILES);
    expect(forwards).toEqual(whole);
    expect(backwards).toEqual(whole);
  });

  it('breaks ties by id, running the way the column is sorted (one ascending index serves both ways)', async () => {
    for (const sort of ['updatedAt:desc', 'updatedAt:asc', 'kind:asc', 'status:desc']) {
      const { items } = await profilesOf({ sort });
      const [field, direction] = sort.split(':') as ['updatedAt' | 'kind' | 'status', 'asc' | 'desc'];
      let ties = 0;
      for (let n = 1; n < items.length; n++) {
        if (items[n]![field] !== items[n - 1]![field]) continue;
        ties++;
        expect(direction === 'asc' ? items[n]!.id > items[n - 1]!.id : items[n]!.id < items[n - 1]!.id, sort).toBe(true);
      }
      expect(ties, sort).toBeGreaterThan(10);
    }
  });

  it.each(HIT_SORTS.flatMap((field) => [`${field}:asc`, `${field}:desc`]))('pages hits by %s: every hit once, the same order in pages as whole', async (sort) => {
    const { whole, forwards, backwards } = await pageThrough((page, pageSize) => hitsOf({ sort, page, pageSize }), 8);
    expect(whole).toHaveLength(HITS);
    expect(new Set(whole).size).toBe(HITS);
    expect(forwards).toEqual(whole);
    expect(backwards).toEqual(whole);
  });

  it('pages the default hit order (strongest, newest, id) within one status too', async () => {
    const { whole, forwards, backwards } = await pageThrough((page, pageSize) => hitsOf({ page, pageSize }, allUser, 'published'), 7);
    expect(whole.sort()).toEqual(expectedHits((h) => h.status === 'published'));
    expect(forwards.length).toBe(whole.length);
    expect(backwards).toEqual(forwards);
  });

  it('finds profiles by each searchable column, by search and by filter', async () => {
    const cases: [string, string, (p: SeedProfile) => boolean][] = [
      ['profileId', 'sus-00', (p) => p.name.toLowerCase().includes('sus-00')],
      ['caseNumber', '2024-002', (p) => p.caseKey === 'A2'],
      ['kind', 'ystr', (p) => p.kind === 'YStr'],
      ['chemistryName', 'identifiler', (p) => p.chem === 'id'],
      ['sampleType', 'convicted', (p) => p.sampleType === 'Convicted Offender'],
      ['sampleSourceName', 'buccal', (p) => p.source === 'buccal'],
      ['physicalItemName', 'collar', (p) => p.item && p.caseKey === 'A2'],
      ['laboratoryName', 'central', (p) => p.lab],
      ['status', 'PEND', (p) => p.status === 'pending'],
    ];
    for (const [field, text, keep] of cases) {
      expect(ids(await profilesOf({ filter: JSON.stringify({ [field]: text }) })), `${field} filter`).toEqual(expectedProfiles(keep));
      const searched = ids(await profilesOf({ search: text }));
      // A search matches any column: at least the column's rows, and only rows some column matches.
      expect(searched, `${field} search`).toEqual(expect.arrayContaining(expectedProfiles(keep)));
    }
    expect(ids(await profilesOf({ search: 'collar' }))).toEqual(expectedProfiles((p) => p.item && p.caseKey === 'A2'));
    expect(ids(await profilesOf({ search: 'B-77' }))).toEqual(expectedProfiles((p) => p.caseKey === 'B1'));
    expect((await profilesOf({ search: 'no such text' })).items).toEqual([]);
    // LIKE's wildcards are text.
    expect((await profilesOf({ search: '%' })).items).toEqual([]);
  });

  it('finds hits by each searchable column, by search and by filter', async () => {
    const named = (h: SeedHit, text: string) =>
      h.profiles.some((i) => {
        const p = seedProfiles[i - 1]!;
        return p.name.toLowerCase().includes(text) || { A1: 'a-2024-001', A2: 'a-2024-002', B1: 'b-77' }[p.caseKey].includes(text);
      });
    const cases: [string, string, (h: SeedHit) => boolean][] = [
      ['analysisName', 'patern', (h) => h.analysis === 'paternity'],
      ['searchRuleName', 'offender vs', (h) => h.rule],
      ['populationName', 'african', (h) => h.population === 'afr'],
      ['profiles', 'vic-01', (h) => named(h, 'vic-01')],
      ['profiles', 'b-77', (h) => named(h, 'b-77')],
      ['status', 'publ', (h) => h.status === 'published'],
    ];
    for (const [field, text, keep] of cases) {
      expect(expectedHits(keep).length, `${field} ${text} finds some`).toBeGreaterThan(0);
      expect(ids(await hitsOf({ filter: JSON.stringify({ [field]: text }) })), `${field} filter`).toEqual(expectedHits(keep));
      expect(ids(await hitsOf({ search: text })), `${field} search`).toEqual(expect.arrayContaining(expectedHits(keep)));
    }
    expect(ids(await hitsOf({ search: 'b-77' }))).toEqual(expectedHits((h) => named(h, 'b-77')));
  });

  it('counts an organization scope exactly from row_counts, however long, on every page', async () => {
    for (const page of [0, 5, 12]) {
      const all = await profilesOf({ page, pageSize: 10 });
      expect(all.count).toBe(PROFILES);
      expect(all.estimated).toBeUndefined();
    }
    const pendingA = await profilesOf({ status: 'pending', pageSize: 2 }, orgUser([ORG_A]));
    expect(pendingA).toMatchObject({ count: expectedProfiles((p) => p.org === ORG_A && p.status === 'pending').length });
    expect(pendingA.estimated).toBeUndefined();
    const hitPage = await hitsOf({ pageSize: 10 }, orgUser([ORG_B]), 'published');
    expect(hitPage).toMatchObject({ count: expectedHits((h) => h.org === ORG_B && h.status === 'published').length });
    expect(hitPage.estimated).toBeUndefined();
  });

  // A searched or filtered list is not a counter's: counted up to the limit, else estimated.
  const approved = JSON.stringify({ status: 'approv' });
  it('counts a searched list exactly up to the limit and at the end of a list, else estimates and says so (PGlite, without autovacuum, always counts)', async () => {
    const estimates = name === 'PostgreSQL';
    const approvedCount = expectedProfiles((p) => p.status === 'approved').length;
    const first = await profilesOf({ pageSize: 10, filter: approved });
    if (estimates) {
      expect(first.estimated).toBe(true);
      expect(first.count).toBeGreaterThan(TUNING.exactCountLimit);
    } else {
      expect(first).toMatchObject({ count: approvedCount });
      expect(first.estimated).toBeUndefined();
    }
    // A page read from the end counted the list.
    const deep = await profilesOf({ page: 8, pageSize: 10, filter: approved });
    expect(deep).toMatchObject({ count: approvedCount });
    expect(deep.estimated).toBeUndefined();
    // The last page shows where the list ends.
    const last = await profilesOf({ page: 13, pageSize: 10, filter: approved }, allUser, { exactCountLimit: 20, deepPageRows: 10_000 });
    expect(last.items).toHaveLength(0);
    expect(last).toEqual({ items: [], count: approvedCount });
    const shortPage = await profilesOf({ page: Math.floor(approvedCount / 20), pageSize: 20, filter: approved }, allUser, { exactCountLimit: 20, deepPageRows: 10_000 });
    expect(shortPage).toMatchObject({ count: approvedCount });
    expect(shortPage.items).toHaveLength(approvedCount % 20);
    // Few matching rows: counted.
    const narrow = await profilesOf({ pageSize: 5, search: 'glove' });
    expect(narrow.estimated).toBeUndefined();
    expect(narrow.count).toBe(expectedProfiles((p) => p.item && p.caseKey === 'B1').length);
    // Above the limit with the real thresholds: counted.
    const real = await profilesOf({ pageSize: 10, filter: approved }, allUser, { exactCountLimit: 10_000, deepPageRows: 50_000 });
    expect(real).toMatchObject({ count: approvedCount });
    expect(real.estimated).toBeUndefined();
    const hitPage = await hitsOf({ pageSize: 10, filter: JSON.stringify({ status: 'publ' }) });
    expect(hitPage.estimated).toBe(estimates ? true : undefined);
  });

  it('counts when the statistics know fewer rows than exist (no ANALYZE since a bulk add)', async () => {
    // Planner statistics from before the rows came: what PGlite always has, and PostgreSQL until autovacuum runs.
    await database.db.execute(sql`update pg_class set reltuples = 1 where relname = 'profiles'`).catch(() => undefined);
    const counted = await profilesOf({ pageSize: 10, filter: approved });
    await database.db.execute(sql`analyze profiles`);
    expect(counted.count).toBe(expectedProfiles((p) => p.status === 'approved').length);
    expect(counted.estimated).toBeUndefined();
  });

  it('keeps organization scope: another organization never shows, searched, filtered or paged from the end', async () => {
    const userA = orgUser([ORG_A]);
    const onlyA = expectedProfiles((p) => p.org === ORG_A);
    const { whole, backwards } = await pageThrough((page, pageSize) => profilesOf({ page, pageSize }, userA), 9);
    expect([...whole].sort()).toEqual(onlyA);
    expect(backwards).toEqual(whole);
    expect((await profilesOf({ search: 'B-77' }, userA)).items).toEqual([]);
    expect((await profilesOf({ filter: JSON.stringify({ physicalItemName: 'glove' }) }, userA)).items).toEqual([]);
    expect(ids(await profilesOf({ search: 'sus' }, userA))).toEqual(expectedProfiles((p) => p.org === ORG_A && p.name.startsWith('SUS')));
    expect((await profilesOf({}, orgUser([]))).items).toEqual([]);
    const hitsA = await hitsOf({}, userA);
    expect(ids(hitsA)).toEqual(expectedHits((h) => h.org === ORG_A));
    expect((await hitsOf({ search: 'b-77' }, userA)).items).toEqual([]);
    const deepHits = await hitsOf({ page: 10, pageSize: 9 }, userA);
    expect(deepHits.items.every((h) => (h as unknown as { organizationId: string }).organizationId === ORG_A)).toBe(true);
    expect(deepHits.count).toBe(expectedHits((h) => h.org === ORG_A).length);
  });

  it('finds profiles by a case number that names more cases than it lists as ids (NAMED_ROWS_LIMIT), the same as by one case', async () => {
    const db = database.db;
    // Cases BULK-0000 … BULK-1000 of organization A, one profile in BULK-0500; removed again afterwards.
    await db.execute(sql`insert into cases (case_number, case_type_id, organization_id)
      select 'BULK-' || lpad(g::text, 4, '0'), ${uuid('0000000f', 1)}, ${ORG_A} from generate_series(0, ${NAMED_ROWS_LIMIT}) g`);
    const bulkProfile = uuid('00000003', 1);
    await db.execute(sql`insert into profiles (id, profile_id, case_id, organization_id, kind, chemistry_id, sample_type, status)
      select ${bulkProfile}, 'LONE-SAMPLE', id, ${ORG_A}, 'Autosomal', ${CHEM.gf}, 'Reference', 'approved' from cases where case_number = 'BULK-0500'`);
    try {
      expect(ids(await profilesOf({ search: 'bulk-0500' }))).toEqual([bulkProfile]);
      expect(ids(await profilesOf({ search: 'bulk-' }))).toEqual([bulkProfile]);
      expect(ids(await profilesOf({ filter: JSON.stringify({ caseNumber: 'ulk-' }) }))).toEqual([bulkProfile]);
      expect((await profilesOf({ search: 'bulk-' }, orgUser([ORG_B]))).items).toEqual([]);
    } finally {
      await db.execute(sql`delete from profiles where id = ${bulkProfile}`);
      await db.execute(sql`delete from cases where case_number like 'BULK-%'`);
    }
  });
});
