import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyboardSearchAnswer } from '../../../../core/schemas/keyboard-search';
import { auditLog, caseTypes, chemistries, markers, profiles } from '../../../../server/db/schema';
import { writeMarkerValues } from '../../../../server/http/profiles/marker-values';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';
import { uploadFbiPopulation, uploadFbiStatistics } from '../../../helpers/calculator-fixtures';
const URL = '/api/profiles/get-all-possible-hits';
const PLANTED: Record<string, string[]> = {
  CSF1PO: ['10', '12'], D3S1358: ['15', '16'], D5S818: ['11', '12'], D7S820: ['8', '10'], D8S1179: ['13', '14'],
  D13S317: ['11'], D16S539: ['9', '11'], D18S51: ['14', '17'], D21S11: ['29', '30'], FGA: ['21', '24'],
  TH01: ['6', '9.3'], TPOX: ['8'], vWA: ['16', '17'], Amelogenin: ['X', 'Y'],
};

let t: TestApp;
let orgA: string;
let orgB: string;
let chemistryId: string;
let populationId: string;
const markerIds = new Map<string, string>();
const profileIds = {} as Record<'a' | 'b' | 'other', string>;
const tokens = {} as Record<'admin' | 'analystA' | 'analystB' | 'noProfiles', string>;

const values = (genotypes: Record<string, string[]>) => Object.entries(genotypes).map(([m, alleles]) => ({ markerId: markerIds.get(m)!, alleles }));
function search(who: keyof typeof tokens, orgId: string, payload: object) {
  return t.app.inject({ method: 'POST', url: URL, headers: { authorization: `Bearer ${tokens[who]}` }, payload: { organizationId: orgId, ...payload } });
}

/** A profile added pending, then approved through the route, so the server's matcher indexes it as in use. */
async function approvedProfile(caseId: string, organizationId: string, sampleName: string, genotypes: Record<string, string[]>) {
  const db = t.database.db;
  const [row] = await db.insert(profiles).values({ profileId: sampleName, caseId, organizationId, kind: 'Autosomal', chemistryId, sampleType: 'Reference', status: 'pending' }).returning();
  await writeMarkerValues(db, row!.id, Object.entries(genotypes).map(([m, alleles], position) => ({ markerId: markerIds.get(m)!, alleles, position })));
  const approved = await t.app.inject({
    method: 'POST',
    url: `/api/profiles/${row!.id}/approve`,
    headers: { authorization: `Bearer ${tokens.admin}` },
    payload: { markerValues: values(genotypes), comments: '', version: row!.version },
  });
  expect(approved.statusCode, approved.body).toBe(200);
  return row!.id;
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  orgA = (await createOrganization(db, 'Oslo Lab')).id;
  orgB = (await createOrganization(db, 'Bergen Lab')).id;
  const admin = await createAccessGroup(db, { isAdmin: true });
  const analyst = await createAccessGroup(db, { grants: { Cases: ['Read', 'Add'], Profiles: ['Read'], Populations: ['Read'] } });
  const casesOnly = await createAccessGroup(db, { grants: { Cases: ['Read'] } });
  tokens.admin = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admin.id })).id);
  tokens.analystA = t.verifier.issue((await createUser(db, { accessGroupId: analyst.id, organizationIds: [orgA] })).id);
  tokens.analystB = t.verifier.issue((await createUser(db, { accessGroupId: analyst.id, organizationIds: [orgB] })).id);
  tokens.noProfiles = t.verifier.issue((await createUser(db, { accessGroupId: casesOnly.id, organizationIds: [orgA] })).id);
  for (const m of await db.select().from(markers)) markerIds.set(m.name, m.id);
  chemistryId = (await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler')))[0]!.id;
  const [caseType] = await db.select().from(caseTypes).limit(1);
  const newCase = async (who: 'analystA' | 'analystB', organizationId: string, caseNumber: string) =>
    (await t.app.inject({ method: 'POST', url: '/api/cases', headers: { authorization: `Bearer ${tokens[who]}` }, payload: { caseNumber, caseTypeId: caseType!.id, organizationId, assignedUserIds: [] } })).json().id as string;
  const caseA = await newCase('analystA', orgA, 'KB-A');
  const caseB = await newCase('analystB', orgB, 'KB-B');
  profileIds.a = await approvedProfile(caseA, orgA, 'REF-A', PLANTED);
  profileIds.b = await approvedProfile(caseB, orgB, 'REF-B', PLANTED);
  profileIds.other = await approvedProfile(caseA, orgA, 'OTHER-A', { ...PLANTED, D3S1358: ['17', '18'], vWA: ['14'], FGA: ['19', '20'] });
  populationId = await uploadFbiPopulation(t, tokens.admin, [orgA, orgB]);
}, 60_000);
afterAll(() => t.close());

describe('keyboard search (POST profiles/get-all-possible-hits)', () => {
  it('finds the planted profile with the identity figures per population, and only in organizations the user reaches', async () => {
    const res = await search('analystA', orgA, { chemistryId, markerValues: values(PLANTED), populationIds: [populationId] });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json() as KeyboardSearchAnswer;
    const found = answer.candidates.map((c) => c.profileId);
    expect(found).toContain(profileIds.a);
    expect(found).not.toContain(profileIds.b);
    const planted = answer.candidates.find((c) => c.profileId === profileIds.a)!;
    expect(planted).toMatchObject({ sampleName: 'REF-A', caseNumber: 'KB-A', comparedMarkers: 13, mismatches: 0, stringencyMet: true });
    const identity = planted.results.find((r) => r.analysisName === 'Identity')!;
    expect(identity).toMatchObject({ populationId, populationName: 'FBI 2015 Caucasian', markerCount: 13, overThreshold: true });
    expect(identity.probability).toMatch(/^99\.99%/);
    expect(answer.candidates.find((c) => c.profileId === profileIds.other)?.stringencyMet ?? false).toBe(false);
    // GENETICS.md "Expected chance hits": N is what the user reaches (REF-A and the other profile of Oslo), the
    // stringency chance is a probability, and the identity figure's p-value is at most the chance of meeting the stringency.
    expect(answer.searchedProfiles).toBe(2);
    expect(answer.chance).toHaveLength(1);
    const chance = answer.chance[0]!;
    expect(chance).toMatchObject({ populationId, populationName: 'FBI 2015 Caucasian', synthetic: false });
    expect(chance.probability).toBeGreaterThan(0);
    expect(chance.probability).toBeLessThan(1e-6);
    expect(chance.expectedChanceHits).toBeCloseTo(2 * chance.probability, 20);
    expect(identity.synthetic).toBe(false);
    expect(identity.pValue).toBeGreaterThan(0);
    expect(identity.pValue!).toBeLessThanOrEqual(chance.probability);
    expect(identity.pValueBracket!.lower).toBeLessThanOrEqual(identity.pValue!);
  });

  it('searches the organization in the body for an administrator with scope All, and every organization only when it says all', async () => {
    const inOslo = await search('admin', orgA, { chemistryId, markerValues: values(PLANTED), populationIds: [] });
    expect(inOslo.statusCode, inOslo.body).toBe(200);
    const oslo = inOslo.json() as KeyboardSearchAnswer;
    expect(oslo.candidates.map((c) => c.profileId)).toContain(profileIds.a);
    expect(oslo.candidates.map((c) => c.profileId)).not.toContain(profileIds.b);
    expect(oslo.searchedProfiles).toBe(2);
    const everywhere = await search('admin', 'all', { chemistryId, markerValues: values(PLANTED), populationIds: [] });
    expect(everywhere.statusCode, everywhere.body).toBe(200);
    expect((everywhere.json() as KeyboardSearchAnswer).candidates.map((c) => c.profileId)).toEqual(expect.arrayContaining([profileIds.a, profileIds.b]));
    // `all` is for scope All: an analyst of one organization is refused.
    expect((await search('analystA', 'all', { chemistryId, markerValues: values(PLANTED), populationIds: [] })).statusCode).toBe(403);
  });

  it('stores nothing of the typed profile: one audit row says a search was made, without alleles', async () => {
    const before = await t.database.db.select().from(auditLog).where(eq(auditLog.entity, 'KeyboardSearch'));
    await search('analystA', orgA, { chemistryId, markerValues: values(PLANTED), populationIds: [populationId], stringency: 'high' });
    const rows = await t.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'KeyboardSearch'), eq(auditLog.organizationId, orgA)));
    expect(rows.length).toBe(before.filter((r) => r.organizationId === orgA).length + 1);
    const last = rows.sort((x, y) => Number(x.seq) - Number(y.seq)).at(-1)!;
    expect(last.action).toBe('Search');
    expect(last.after).toMatchObject({ chemistryId, stringency: 'high', markerCount: 14 });
    expect(JSON.stringify(last.after)).not.toMatch(/9\.3/);
    expect(await t.database.db.select().from(profiles)).toHaveLength(3);
  });

  it('refuses without Profiles Read, and in an organization the user is not in (403)', async () => {
    const body = { chemistryId, markerValues: values(PLANTED), populationIds: [] };
    expect((await search('noProfiles', orgA, body)).statusCode).toBe(403);
    expect((await search('analystA', orgB, body)).statusCode).toBe(403);
  });

  it("reads the populations' statistics through the search queue's cache, and the new ones once an upload replaced them", async () => {
    // Its own population, so the other tests' figures stay those of the Caucasian table.
    const own = await uploadFbiPopulation(t, tokens.admin, [orgA], 'Caucasian', 'FBI 2015 replaced');
    const identityOf = async (id: string) => {
      const res = await search('analystA', orgA, { chemistryId, markerValues: values(PLANTED), populationIds: [id] });
      expect(res.statusCode, res.body).toBe(200);
      const planted = (res.json() as KeyboardSearchAnswer).candidates.find((c) => c.profileId === profileIds.a)!;
      return planted.results.find((r) => r.analysisName === 'Identity')!.combinedIndex;
    };
    await t.app.searchRuntime.queue.idle();
    const cache = t.app.searchRuntime.queue.populations;
    const load = cache.load.bind(cache);
    const asked: string[][] = [];
    cache.load = (db, ids) => (asked.push([...ids]), load(db, ids));
    try {
      const caucasian = await identityOf(own);
      expect(asked).toEqual([[own]]);
      expect(caucasian).toBe(await identityOf(populationId));
      const read = (await t.app.inject({ method: 'GET', url: `/api/populations/${own}`, headers: { authorization: `Bearer ${tokens.admin}` } })).json() as { id: string; version: number };
      await uploadFbiStatistics(t, tokens.admin, read, 'African American');
      // The same figure a population that always held the African American table gives, not the cached Caucasian one.
      const replaced = await identityOf(own);
      expect(replaced).not.toBe(caucasian);
      expect(replaced).toBe(await identityOf(await uploadFbiPopulation(t, tokens.admin, [orgA], 'African American')));
    } finally {
      cache.load = load;
    }
  });

  it('answers 400 with the field of each problem', async () => {
    const missing = await search('analystA', orgA, { markerValues: values(PLANTED), populationIds: [], stringency: 'medium' });
    expect(missing.statusCode).toBe(400);
    const paths = (missing.json().details as { path: string }[]).map((d) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['/chemistryId', '/stringency']));
    const badAllele = await search('analystA', orgA, { chemistryId, markerValues: [{ markerId: markerIds.get('vWA')!, alleles: ['17', '9.35'] }], populationIds: [] });
    expect(badAllele.statusCode).toBe(400);
    expect((badAllele.json().details as { path: string }[])[0]!.path).toMatch(/^\/markerValues\/0/);
  });
});
