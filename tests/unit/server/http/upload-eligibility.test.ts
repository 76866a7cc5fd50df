/**
 * Issue 32, upload eligibility: the level's rules per index (read by everyone, edited by an administrator with scope
 * All, versioned and audited) and each profile's verdict with its reasons, on PGlite and on PostgreSQL when reachable.
 */
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODIS_CORE_LOCI } from '../../../../core/network/codis-core-loci';
import { STALE_RECORD_MESSAGE } from '../../../../core/schemas/list';
import type { SampleType } from '../../../../core/schemas/profiles';
import type { ProfileUploadEligibility, UploadEligibilityRules } from '../../../../core/schemas/upload-eligibility';
import type { Database, Db } from '../../../../server/db/database';
import { auditLog, caseTypes, cases, chemistries, markers, populationOrganizations, populations, profiles, uploadEligibilityIndexes } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { writeMarkerValues } from '../../../../server/http/profiles/marker-values';
import { createTestApp, type TestApp } from '../../../helpers/app';
import { databaseEngines } from '../../../helpers/database';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';

let t: TestApp;
let db: Db;
const tokens = {} as Record<'adminAll' | 'adminOrg' | 'analyst' | 'otherLab', string>;
let caseId = '';
let chemistryId = '';
const markerIds = new Map<string, string>();
let seq = 0;

/** A casework population shared with the organization: the synthetic one's frequencies under a real population's flag. */
async function caseworkPopulation(organizationId: string): Promise<void> {
  const [synthetic] = await db.select().from(populations).where(eq(populations.synthetic, true));
  const [population] = await db.insert(populations).values({ name: 'Casework', kind: 'Autosomal', statisticsUploadedAt: new Date() }).returning();
  await db.execute(sql`insert into population_markers (population_id, marker_id, sample_size) select ${population!.id}, marker_id, sample_size from population_markers where population_id = ${synthetic!.id}`);
  await db.execute(sql`insert into population_alleles (population_id, marker_id, allele, frequency) select ${population!.id}, marker_id, allele, frequency from population_alleles where population_id = ${synthetic!.id}`);
  await db.insert(populationOrganizations).values({ populationId: population!.id, organizationId });
}

async function setUp(open: () => Promise<Database>): Promise<void> {
  t = await createTestApp({ database: await open() });
  db = t.database.db;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  const lab = await createOrganization(db, 'Local lab');
  const other = await createOrganization(db, 'Other lab');
  await caseworkPopulation(lab.id);
  const admins = await createAccessGroup(db, { isAdmin: true });
  tokens.adminAll = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admins.id })).id);
  tokens.adminOrg = t.verifier.issue((await createUser(db, { scope: 'Organization', accessGroupId: admins.id, organizationIds: [lab.id] })).id);
  const analysts = await createAccessGroup(db, { grants: { Profiles: ['Read', 'Add', 'Edit'], Cases: ['Read'] } });
  tokens.analyst = t.verifier.issue((await createUser(db, { accessGroupId: analysts.id, organizationIds: [lab.id] })).id);
  tokens.otherLab = t.verifier.issue((await createUser(db, { accessGroupId: analysts.id, organizationIds: [other.id] })).id);
  const [caseType] = await db.select().from(caseTypes).limit(1);
  caseId = (await db.insert(cases).values({ caseNumber: 'UP-1', caseTypeId: caseType!.id, organizationId: lab.id }).returning())[0]!.id;
  chemistryId = (await db.select().from(chemistries)).find((c) => c.name === 'GlobalFiler')!.id;
  for (const m of await db.select({ id: markers.id, name: markers.name }).from(markers)) markerIds.set(m.name, m.id);
}

const call = (who: keyof typeof tokens, method: 'GET' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}` }, ...(payload ? { payload } : {}) });
const rules = async () => (await call('analyst', 'GET', '/api/upload-eligibility-rules')).json() as UploadEligibilityRules;
const details = (body: string) => (JSON.parse(body) as { details?: { path: string; message: string }[] }).details ?? [];
/** The whole rule set as the form sends it, with `change` applied to the index named. */
const edited = (current: UploadEligibilityRules, name: string, change: object) => ({
  indexes: current.indexes.map(({ name: n, updatedAt: _, ...index }) => (n === name ? { ...index, ...change } : index)),
});

/** A profile of the local lab typed at `loci` (alleles 11 and 12 each, or `alleles`), approved unless said otherwise. */
async function profile(sampleType: SampleType, loci: readonly string[], opts: { alleles?: string[]; status?: 'approved' | 'pending' } = {}): Promise<string> {
  const [row] = await db
    .insert(profiles)
    .values({ profileId: `P${++seq}`, caseId, organizationId: (await db.select().from(cases).where(eq(cases.id, caseId)))[0]!.organizationId, kind: 'Autosomal', chemistryId, sampleType, status: opts.status ?? 'approved' })
    .returning();
  await writeMarkerValues(db, row!.id, loci.map((m, position) => ({ markerId: markerIds.get(m)!, alleles: opts.alleles ?? ['11', '12'], position })));
  return row!.id;
}
const eligibility = async (id: string, who: keyof typeof tokens = 'analyst') => {
  const res = await call(who, 'GET', `/api/profiles/${id}/upload-eligibility`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ProfileUploadEligibility;
};

const engines = await databaseEngines();

describe.each(engines)('upload eligibility on $name', ({ open }) => {
  beforeAll(() => setUp(open), 120_000);
  afterAll(() => t.close());

  it('seeds the NDIS-modelled indexes, which everyone signed in may read', async () => {
    const current = await rules();
    expect(current.coreLoci).toEqual([...CODIS_CORE_LOCI]);
    expect(current.indexes.map((i) => [i.name, i.minCoreLoci, i.maxAllelesPerLocus, i.rarityOneIn])).toEqual([
      ['Convicted Offender', 20, 2, null],
      ['Arrestee', 20, 2, null],
      ['Forensic Unknown', 8, 2, 1e7],
      ['Forensic Mixture', 8, 4, 1e7],
      ['Missing Person', 8, 2, null],
      ['Unidentified Human Remains', 8, 2, null],
      ['Relatives of Missing Person', 20, 2, null],
    ]);
    expect(current.indexes.flatMap((i) => i.sampleTypes)).not.toContain('Elimination, Known');
  });

  it('lets only an administrator with scope All change them', async () => {
    const body = edited(await rules(), 'Arrestee', { minCoreLoci: 15 });
    expect((await call('analyst', 'PUT', '/api/upload-eligibility-rules', body)).statusCode).toBe(403);
    expect((await call('adminOrg', 'PUT', '/api/upload-eligibility-rules', body)).statusCode).toBe(403);
    expect((await rules()).indexes.find((i) => i.name === 'Arrestee')!.minCoreLoci).toBe(20);
  });

  it('saves a change with a new version, audited with the rules before and after in the same write', async () => {
    const before = await rules();
    const arrestee = before.indexes.find((i) => i.name === 'Arrestee')!;
    const res = await call('adminAll', 'PUT', '/api/upload-eligibility-rules', edited(before, 'Arrestee', { minCoreLoci: 18 }));
    expect(res.statusCode, res.body).toBe(200);
    const after = (res.json() as UploadEligibilityRules).indexes;
    expect(after.find((i) => i.name === 'Arrestee')).toMatchObject({ minCoreLoci: 18, version: arrestee.version + 1 });
    // An index the save left alone keeps its version.
    expect(after.find((i) => i.name === 'Convicted Offender')!.version).toBe(before.indexes[0]!.version);
    const [row] = await db.select().from(auditLog).where(eq(auditLog.entity, 'upload-eligibility-rules')).orderBy(asc(auditLog.seq));
    expect(row).toMatchObject({ action: 'Edited' });
    const indexOf = (state: unknown) => (state as UploadEligibilityRules).indexes.find((i) => i.name === 'Arrestee');
    expect(indexOf(row!.before)).toMatchObject({ minCoreLoci: 20 });
    expect(indexOf(row!.after)).toMatchObject({ minCoreLoci: 18 });
  });

  it('refuses a save from a stale form with 409, writing nothing', async () => {
    const stale = await rules();
    expect((await call('adminAll', 'PUT', '/api/upload-eligibility-rules', edited(stale, 'Missing Person', { minCoreLoci: 10 }))).statusCode).toBe(200);
    const res = await call('adminAll', 'PUT', '/api/upload-eligibility-rules', edited(stale, 'Missing Person', { minCoreLoci: 12 }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: STALE_RECORD_MESSAGE });
    expect((await rules()).indexes.find((i) => i.name === 'Missing Person')!.minCoreLoci).toBe(10);
  });

  it('answers bad input with field errors and writes nothing', async () => {
    const current = await rules();
    const tooMany = await call('adminAll', 'PUT', '/api/upload-eligibility-rules', edited(current, 'Forensic Unknown', { minCoreLoci: 21 }));
    expect(tooMany.statusCode).toBe(400);
    expect(details(tooMany.body)).toContainEqual({ path: '/indexes/2/minCoreLoci', message: 'At most 20 (the CODIS core loci)' });
    const twice = await call('adminAll', 'PUT', '/api/upload-eligibility-rules', edited(current, 'Arrestee', { sampleTypes: ['Arrestee', 'Convicted Offender'] }));
    expect(twice.statusCode).toBe(400);
    expect(details(twice.body)).toContainEqual({ path: '/indexes/1/sampleTypes', message: 'Convicted Offender is already in another index: a sample type is uploaded to one index' });
    const missing = await call('adminAll', 'PUT', '/api/upload-eligibility-rules', { indexes: edited(current, 'Arrestee', {}).indexes.slice(1) });
    expect(missing.statusCode).toBe(400);
    expect(details(missing.body)).toContainEqual({ path: '/indexes', message: 'Every index must be sent; missing: Convicted Offender' });
    const unknown = edited(current, 'Arrestee', {});
    unknown.indexes[0] = { ...unknown.indexes[0]!, id: '0190f3f0-0000-7000-8000-000000000000' };
    const res = await call('adminAll', 'PUT', '/api/upload-eligibility-rules', unknown);
    expect(res.statusCode).toBe(400);
    expect(details(res.body)).toContainEqual({ path: '/indexes/0/id', message: 'No such index (it may have been removed)' });
    expect(await rules()).toEqual(current);
  });

  it('says an offender typed at all 20 core loci is eligible, and names what another lacks', async () => {
    expect(await eligibility(await profile('Convicted Offender', CODIS_CORE_LOCI))).toMatchObject({ eligible: true, index: 'Convicted Offender', reasons: [] });
    const partial = await eligibility(await profile('Convicted Offender', CODIS_CORE_LOCI.filter((l) => l !== 'D8S1179' && l !== 'TH01')));
    expect(partial).toMatchObject({ eligible: false, reasons: ['Missing core loci: D8S1179, TH01 (18 of 20 typed; Convicted Offender needs all 20)'] });
    const pending = await eligibility(await profile('Convicted Offender', CODIS_CORE_LOCI, { status: 'pending' }));
    expect(pending.reasons).toEqual(['The profile is pending: only approved profiles are uploaded']);
  });

  it('weighs a forensic unknown against the rarity threshold with the organization’s casework population', async () => {
    const id = await profile('Forensic, Unknown', CODIS_CORE_LOCI);
    const rare = await eligibility(id);
    expect(rare).toMatchObject({ eligible: true, index: 'Forensic Unknown' });
    expect(rare.matchProbability).toBeGreaterThan(0);
    expect(rare.matchProbability).toBeLessThan(1e-7);
    // A stain typed at 8 loci is commoner: raised to ten times its own figure, the threshold refuses it.
    const eight = await profile('Forensic, Unknown', ['CSF1PO', 'D5S818', 'D7S820', 'D13S317', 'D16S539', 'TPOX', 'D3S1358', 'vWA']);
    const figure = (await eligibility(eight)).matchProbability!;
    expect(figure).toBeGreaterThan(rare.matchProbability!);
    const res = await call('adminAll', 'PUT', '/api/upload-eligibility-rules', edited(await rules(), 'Forensic Unknown', { rarityOneIn: 1e3 * Math.ceil(10 / figure / 1e3) }));
    expect(res.statusCode, res.body).toBe(200);
    const common = await eligibility(eight);
    expect(common.eligible).toBe(false);
    expect(common.reasons).toEqual([expect.stringMatching(/^Match probability 1 in .+ is above the level's rarity threshold 1 in .+$/)]);
    expect(await eligibility(id)).toMatchObject({ eligible: true });
  });

  it('names a mixture locus with too many alleles and a sample type no index takes', async () => {
    const mixture = await eligibility(await profile('Forensic Mixture', CODIS_CORE_LOCI, { alleles: ['10', '11', '12', '13', '14'] }));
    expect(mixture.reasons).toContain('Too many alleles at D3S1358: 5 (at most 4)');
    expect(await eligibility(await profile('Elimination, Known', CODIS_CORE_LOCI))).toEqual({
      eligible: false,
      index: null,
      reasons: ['Sample type Elimination, Known is not uploaded to this level'],
      matchProbability: null,
      upperInstance: false,
    });
  });

  it('answers 404 for another organization’s profile', async () => {
    const id = await profile('Convicted Offender', CODIS_CORE_LOCI);
    expect((await call('otherLab', 'GET', `/api/profiles/${id}/upload-eligibility`)).statusCode).toBe(404);
  });

  it('keeps the seed idempotent: a second run adds nothing and leaves edits', async () => {
    const { seedUploadEligibility } = await import('../../../../server/db/seed/upload-eligibility');
    expect(await seedUploadEligibility(db)).toBe(0);
    expect((await db.select().from(uploadEligibilityIndexes).where(eq(uploadEligibilityIndexes.name, 'Arrestee')))[0]!.minCoreLoci).toBe(18);
  });
});
