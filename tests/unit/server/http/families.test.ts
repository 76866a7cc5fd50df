/**
 * Issue 16, missing-person search in both directions: a case's family (a pedigree analysis with its typed
 * relatives) is activated and searches the organization's approved remains; an approved remains profile searches
 * every active family. One pending hit per family × remains, with the calculator's LR and the expected chance hits.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fbi2015Population, profileGenerator, seededRandom } from '../../../../bench/synthetic-profiles';
import type { AnalysisResult } from '../../../../core/schemas/analyses';
import type { Family, FamilySearchAnswer } from '../../../../core/schemas/families';
import type { HitView } from '../../../../core/schemas/hits';
import type { SampleType } from '../../../../core/schemas/profiles';
import { analyses, caseTypes, cases, chemistries, hits, markers, populations, profiles } from '../../../../server/db/schema';
import type { Genotype } from '../../../../server/genetics/types';
import { writeMarkerValues } from '../../../../server/http/profiles/marker-values';
import { createAccessGroup, createUser, osloAndBergen } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';
import { searchesDone as waitForSearches } from '../../../helpers/searches-done';
import { uploadFbiPopulation } from '../../../helpers/calculator-fixtures';

const caucasian = fbi2015Population('Caucasian');
const random = seededRandom(1616);
const pick = (g: Genotype) => g[random() < 0.5 ? 0 : g.length - 1]!;
/** A child of two profiles: one allele from each, no mutation. */
const childOf = (father: ReadonlyMap<string, Genotype>, mother: ReadonlyMap<string, Genotype>) =>
  new Map(
    [...father].map(([marker, g]) => {
      const pair = [pick(g), pick(mother.get(marker)!)].sort((a, b) => Number(a) - Number(b));
      return [marker, pair[0] === pair[1] ? [pair[0]!] : pair] as [string, Genotype];
    }),
  );

let t: TestApp;
const org = { a: '', b: '' };
const tokens = {} as Record<'admin' | 'a' | 'b', string>;
const pop = { caucasian: '', african: '', synthetic: '' };
let chemistryId = '';
let caseA = '';
let caseB = '';
let analysisId = '';
const markerIds = new Map<string, string>();
const ids = new Map<string, string>();
const generate = profileGenerator(caucasian, 160);
const [father, mother] = [generate(), generate()];
const sister = childOf(father, mother);
const missing = childOf(father, mother);
const brother = childOf(father, mother);

function call<T = unknown>(who: keyof typeof tokens, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}` }, ...(payload ? { payload } : {}) }).then((res) => ({ status: res.statusCode, body: (res.body ? res.json() : null) as T, raw: res.body }));
}

/** A profile entered pending, then approved through the route (so the matcher indexes it and searches). */
async function profile(who: 'a' | 'b', caseId: string, name: string, sampleType: SampleType, genotypes: ReadonlyMap<string, Genotype>) {
  const db = t.database.db;
  const [row] = await db.insert(profiles).values({ profileId: name, caseId, organizationId: org[who], kind: 'Autosomal', chemistryId, sampleType, status: 'pending' }).returning();
  const markerValues = [...genotypes].map(([m, alleles]) => ({ markerId: markerIds.get(m)!, alleles: [...alleles] }));
  await writeMarkerValues(db, row!.id, markerValues.map((v, position) => ({ ...v, position })));
  ids.set(name, row!.id);
  const approved = await call('admin', 'POST', `/api/profiles/${row!.id}/approve`, { markerValues, comments: '', version: row!.version });
  expect(approved.status, approved.raw).toBe(200);
}

const searchesDone = () => waitForSearches(t.app, tokens.admin);

const familyHits = async () => t.database.db.select().from(hits).where(eq(hits.analysisId, analysisId));
const body = (overrides: object = {}) => ({
  name: 'Family of the missing son',
  analysisId,
  relatives: [{ role: 'Mother', profileId: ids.get('MOTHER')! }, { role: 'Full sister', profileId: ids.get('SISTER')! }],
  populationIds: [pop.caucasian, pop.african],
  threshold: 1000,
  ...overrides,
});

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  Object.assign(org, await osloAndBergen(db));
  const admin = await createAccessGroup(db, { isAdmin: true });
  const analyst = await createAccessGroup(db, { grants: { Cases: ['Read', 'Add', 'Edit'], Profiles: ['Read', 'Add', 'Edit'], Hits: ['Read'], Analyses: ['Read'], Populations: ['Read'] } });
  tokens.admin = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admin.id })).id);
  tokens.a = t.verifier.issue((await createUser(db, { accessGroupId: analyst.id, organizationIds: [org.a] })).id);
  tokens.b = t.verifier.issue((await createUser(db, { accessGroupId: analyst.id, organizationIds: [org.b] })).id);
  chemistryId = (await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler')))[0]!.id;
  for (const m of await db.select().from(markers)) markerIds.set(m.name, m.id);
  pop.caucasian = await uploadFbiPopulation(t, tokens.admin, [org.a, org.b], 'Caucasian');
  pop.african = await uploadFbiPopulation(t, tokens.admin, [org.a, org.b], 'African American');
  pop.synthetic = (await db.select().from(populations).where(eq(populations.synthetic, true)))[0]!.id;
  analysisId = (await db.select().from(analyses).where(eq(analyses.name, 'Mother and full sister')))[0]!.id;
  const [caseType] = await db.select().from(caseTypes).limit(1);
  caseA = (await db.insert(cases).values({ caseNumber: 'MP-2026-1', caseTypeId: caseType!.id, organizationId: org.a }).returning())[0]!.id;
  caseB = (await db.insert(cases).values({ caseNumber: 'UHR-B', caseTypeId: caseType!.id, organizationId: org.b }).returning())[0]!.id;
  const remainsCase = (await db.insert(cases).values({ caseNumber: 'UHR-A', caseTypeId: caseType!.id, organizationId: org.a }).returning())[0]!.id;
  await profile('a', caseA, 'MOTHER', 'Biological Mother', mother);
  await profile('a', caseA, 'SISTER', 'Biological Sibling', sister);
  await profile('a', remainsCase, 'REMAINS-TRUE', 'Unidentified Human (Remains)', missing);
  for (let i = 0; i < 30; i++) await profile('a', remainsCase, `REMAINS-${i}`, 'Unidentified Human (Remains)', generate());
  // The same person's remains in another organization: never a hit for Oslo's family.
  await profile('b', caseB, 'REMAINS-BERGEN', 'Unidentified Human (Remains)', missing);
  await searchesDone();
}, 120_000);
afterAll(() => t.close());

describe('missing-person families', () => {
  let family: Family;

  it('refuses a family that cannot be searched, naming the field', async () => {
    const refused = async (payload: object, path: string) => {
      const res = await call<{ details: { path: string }[] }>('a', 'POST', `/api/cases/${caseA}/families`, payload);
      expect(res.status, res.raw).toBe(400);
      expect(res.body.details.map((d) => d.path)).toContain(path);
    };
    await refused(body({ relatives: [{ role: 'Mother', profileId: ids.get('MOTHER')! }] }), '/relatives');
    await refused(body({ relatives: [{ role: 'Mother', profileId: ids.get('MOTHER')! }, { role: 'Full sister', profileId: ids.get('REMAINS-0')! }] }), '/relatives/1/profileId');
    await refused(body({ populationIds: [pop.synthetic] }), '/populationIds/0');
    const identity = (await t.database.db.select().from(analyses).where(eq(analyses.name, 'Identity')))[0]!.id;
    await refused(body({ analysisId: identity }), '/analysisId');
  });

  it('activating the family searches its organization\'s remains: one pending hit, with the calculator\'s LR and expected chance hits', async () => {
    const created = await call<Family>('a', 'POST', `/api/cases/${caseA}/families`, body());
    expect(created.status, created.raw).toBe(201);
    family = created.body;
    expect(family).toMatchObject({ status: 'draft', missingPersonRole: 'Missing person', analysisName: 'Mother and full sister', hitCount: 0 });
    expect(family.relatives.map((r) => r.sampleName)).toEqual(['MOTHER', 'SISTER']);

    const activated = await call<FamilySearchAnswer>('a', 'POST', `/api/families/${family.id}/activate`, { version: family.version });
    expect(activated.status, activated.raw).toBe(200);
    expect(activated.body.searchedProfiles).toBe(31);
    expect(activated.body.hitsAdded).toBe(1);
    family = activated.body.family;
    expect(family.status).toBe('active');
    expect(family.hitCount).toBe(1);

    const [hit] = await familyHits();
    const view = (await call<HitView>('a', 'GET', `/api/hits/${hit!.id}`)).body;
    expect(view.hit).toMatchObject({ status: 'pending', familyId: family.id, familyName: 'Family of the missing son', searchRuleId: null });
    expect(view.hit.profiles.map((p) => [p.role, p.sampleName])).toEqual([['Missing person', 'REMAINS-TRUE'], ['Mother', 'MOTHER'], ['Full sister', 'SISTER']]);
    const figures = hit!.figures!.populations;
    expect(figures.map((f) => f.populationName).sort()).toEqual(['FBI 2015 African American', 'FBI 2015 Caucasian']);
    // The reported population is the smallest LR; each equals the calculator's for the same profiles.
    const reported = figures.find((f) => f.reported)!;
    expect(reported.combinedIndex).toBe(Math.min(...figures.map((f) => f.combinedIndex!)));
    const analyzed = await call<AnalysisResult>('a', 'POST', `/api/analyses/${analysisId}/analyze`, { profileIds: [ids.get('REMAINS-TRUE'), ids.get('MOTHER'), ids.get('SISTER')], populationIds: [pop.caucasian, pop.african] });
    for (const f of figures) {
      const calc = analyzed.body.populations.find((p) => p.populationId === f.populationId)!;
      expect(Math.abs(f.combinedIndex! - calc.combinedIndex!) / calc.combinedIndex!).toBeLessThan(1e-12);
      expect(f.markersNeedingMutation).toEqual(calc.markersNeedingMutation);
    }
    expect(reported.chance!.searchedProfiles).toBe(31);
    expect(reported.chance!.expectedChanceHits).toBeGreaterThan(0);
    expect(reported.chance!.expectedChanceHits).toBeLessThan(1);
    expect(hit!.expectedChanceHits).toBe(reported.chance!.expectedChanceHits);
    expect(hit!.familyId).toBe(family.id);

    // Activating again finds nothing new.
    const again = await call<FamilySearchAnswer>('a', 'POST', `/api/families/${family.id}/activate`, { version: family.version });
    expect(again.body.hitsAdded).toBe(0);
    family = again.body.family;
  });

  it('an approved remains profile searches the active families: the missing person\'s brother is found', async () => {
    const remainsCase = (await t.database.db.select().from(cases).where(eq(cases.caseNumber, 'UHR-A')))[0]!.id;
    // Every statement on the database, to count the reads of the family's allele frequencies.
    const client = (t.database.db as unknown as { $client: { query: (sql: string, ...rest: unknown[]) => Promise<unknown> } }).$client;
    const query = client.query.bind(client);
    let frequencyReads = 0;
    client.query = (sql, ...rest) => {
      if (sql.includes('from "population_alleles"')) frequencyReads++;
      return query(sql, ...rest);
    };
    try {
      await profile('a', remainsCase, 'REMAINS-BROTHER', 'Unidentified Human (Remains)', brother);
      await profile('a', remainsCase, 'REMAINS-STRANGER', 'Unidentified Human (Remains)', generate());
      await searchesDone();
    } finally {
      client.query = query;
    }
    // Issue 29: the statistics are the search queue's, read once while unchanged, not again per approval and family
    // (two approvals against a family of two populations read them four times, holding PGlite's one connection).
    expect(frequencyReads).toBeLessThanOrEqual(body().populationIds.length);
    const found = await familyHits();
    expect(found).toHaveLength(2);
    const names = await Promise.all(found.map(async (h) => (await call<HitView>('a', 'GET', `/api/hits/${h.id}`)).body.hit.profiles[0]!.sampleName));
    expect(names.sort()).toEqual(['REMAINS-BROTHER', 'REMAINS-TRUE']);
    // The chance figures are computed for the hit (and only for hits: the stranger's weighing skips them).
    for (const h of found) for (const p of h.figures!.populations) expect(p.chance!.expectedChanceHits).toBeGreaterThan(0);
  });

  it('stays within its organization, stops searching when deactivated and keeps its hits', async () => {
    expect((await call('b', 'GET', `/api/cases/${caseA}/families`)).status).toBe(404);
    expect((await call('b', 'POST', `/api/families/${family.id}/deactivate`, { version: family.version })).status).toBe(404);
    expect((await call('a', 'PUT', `/api/families/${family.id}`, { ...body(), version: family.version })).status).toBe(409);
    const off = await call<Family>('a', 'POST', `/api/families/${family.id}/deactivate`, { version: family.version });
    expect(off.status, off.raw).toBe(200);
    expect(off.body.status).toBe('inactive');
    const remainsCase = (await t.database.db.select().from(cases).where(eq(cases.caseNumber, 'UHR-A')))[0]!.id;
    await profile('a', remainsCase, 'REMAINS-SECOND-BROTHER', 'Unidentified Human (Remains)', childOf(father, mother));
    await searchesDone();
    expect(await familyHits()).toHaveLength(2);
    const deleted = await call<{ error: string }>('a', 'DELETE', `/api/families/${family.id}`);
    expect(deleted.status).toBe(409);
    expect(deleted.body.error).toMatch(/found 2 hits/);
    const listed = await call<Family[]>('a', 'GET', `/api/cases/${caseA}/families`);
    expect(listed.body.map((f) => [f.name, f.status, f.hitCount])).toEqual([['Family of the missing son', 'inactive', 2]]);
  });
});
