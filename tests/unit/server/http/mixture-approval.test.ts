/**
 * Issue 17: approving a forensic mixture weighs the organization's offender, arrestee and suspect profiles as
 * contributors (the seed mixture rule) and records those over the analysis's LR as pending hits, the calculator's
 * numbers, with the expected chance hits; another organization's profiles are never weighed.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fbi2015Population, profileGenerator } from '../../../../bench/synthetic-profiles';
import type { SampleType } from '../../../../core/schemas/profiles';
import { analyses, caseTypes, cases, chemistries, hitProfiles, hits, markers, profiles } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { writeMarkerValues } from '../../../../server/http/profiles/marker-values';
import type { Genotype } from '../../../../server/genetics/types';
import { createTestApp, type TestApp } from '../../../helpers/app';
import { uploadFbiPopulation } from '../../../helpers/calculator-fixtures';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { searchesDone } from '../../../helpers/searches-done';

const caucasian = fbi2015Population('Caucasian');
const generate = profileGenerator(caucasian, 1717);
const contributors = [generate(), generate(), generate()];
let k = 0;
// The three contributors' alleles, every sixth one dropped out.
const stain = new Map([...contributors[0]!.keys()].map((m) => [m, [...new Set(contributors.flatMap((c) => [...c.get(m)!]))].filter(() => k++ % 6 !== 0).sort((a, b) => Number(a) - Number(b))] as [string, Genotype]));

let t: TestApp;
const org = { a: '', b: '' };
const tokens = {} as Record<'admin' | 'a', string>;
let chemistryId = '';
let populationId = '';
const markerIds = new Map<string, string>();
const ids = new Map<string, string>();

function call<T = unknown>(method: 'GET' | 'POST', url: string, payload?: object) {
  return t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens.a}` }, ...(payload ? { payload } : {}) }).then((res) => ({ status: res.statusCode, body: res.json() as T, raw: res.body }));
}

async function profile(who: 'a' | 'b', caseId: string, name: string, sampleType: SampleType, genotypes: ReadonlyMap<string, Genotype>) {
  const db = t.database.db;
  const [row] = await db.insert(profiles).values({ profileId: name, caseId, organizationId: org[who], kind: 'Autosomal', chemistryId, sampleType, status: 'pending' }).returning();
  const markerValues = [...genotypes].map(([m, alleles]) => ({ markerId: markerIds.get(m)!, alleles: [...alleles] }));
  await writeMarkerValues(db, row!.id, markerValues.map((v, position) => ({ ...v, position })));
  ids.set(name, row!.id);
  const approved = await t.app.inject({ method: 'POST', url: `/api/profiles/${row!.id}/approve`, headers: { authorization: `Bearer ${tokens.admin}` }, payload: { markerValues, comments: '', version: row!.version } });
  expect(approved.statusCode, approved.body).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  org.a = (await createOrganization(db, 'Oslo Lab')).id;
  org.b = (await createOrganization(db, 'Bergen Lab')).id;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  const admin = await createAccessGroup(db, { isAdmin: true });
  const analyst = await createAccessGroup(db, { grants: { Cases: ['Read'], Profiles: ['Read'], Hits: ['Read'], Analyses: ['Read'], Populations: ['Read'] } });
  tokens.admin = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admin.id })).id);
  tokens.a = t.verifier.issue((await createUser(db, { accessGroupId: analyst.id, organizationIds: [org.a] })).id);
  chemistryId = (await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler')))[0]!.id;
  for (const m of await db.select().from(markers)) markerIds.set(m.name, m.id);
  populationId = await uploadFbiPopulation(t, tokens.admin, [org.a, org.b], 'Caucasian');
  const [caseType] = await db.select().from(caseTypes).limit(1);
  const caseA = (await db.insert(cases).values({ caseNumber: 'MIX-A', caseTypeId: caseType!.id, organizationId: org.a }).returning())[0]!.id;
  const caseB = (await db.insert(cases).values({ caseNumber: 'MIX-B', caseTypeId: caseType!.id, organizationId: org.b }).returning())[0]!.id;
  for (const [i, c] of contributors.entries()) await profile('a', caseA, `CONTRIBUTOR-${i}`, i === 2 ? 'Suspect, Known' : 'Convicted Offender', c);
  for (let i = 0; i < 40; i++) await profile('a', caseA, `OFFENDER-${i}`, 'Convicted Offender', generate());
  await profile('b', caseB, 'CONTRIBUTOR-0-BERGEN', 'Convicted Offender', contributors[0]!);
  await searchesDone(t.app, tokens.admin);
  await profile('a', caseA, 'STAIN', 'Forensic Mixture', stain);
  await searchesDone(t.app, tokens.admin);
}, 180_000);
afterAll(() => t.close());

describe('approving a forensic mixture', () => {
  it('records the contributors as pending mixture hits over the analysis\'s LR, each with the calculator\'s LR and the chance figures', async () => {
    const db = t.database.db;
    const found = await db.select({ hit: hits, profileId: hitProfiles.profileId }).from(hits).innerJoin(hitProfiles, eq(hitProfiles.hitId, hits.id)).where(eq(hits.matchKind, 'mixture'));
    const byHit = new Map<string, { hit: typeof hits.$inferSelect; profiles: string[] }>();
    for (const r of found) {
      if (!byHit.has(r.hit.id)) byHit.set(r.hit.id, { hit: r.hit, profiles: [] });
      byHit.get(r.hit.id)!.profiles.push(r.profileId);
    }
    const names = new Map([...ids].map(([name, id]) => [id, name]));
    const candidates = [...byHit.values()].map((h) => ({ ...h, candidate: h.profiles.map((p) => names.get(p)!).find((n) => n !== 'STAIN')! }));
    expect(candidates.every((c) => c.profiles.includes(ids.get('STAIN')!))).toBe(true);
    // Two of the three contributors are this strong with every sixth allele gone; no unrelated offender is; Bergen's copy is never weighed.
    expect(candidates.map((c) => c.candidate).filter((n) => n.startsWith('CONTRIBUTOR')).length).toBeGreaterThanOrEqual(2);
    expect(candidates.map((c) => c.candidate).some((n) => n.startsWith('OFFENDER') || n.includes('BERGEN'))).toBe(false);
    const [analysis] = await db.select().from(analyses).where(eq(analyses.name, 'Mixture, 3 contributors'));
    for (const c of candidates) {
      expect(c.hit).toMatchObject({ status: 'pending', analysisId: analysis!.id });
      expect(c.hit.combinedIndex!).toBeGreaterThanOrEqual(10_000);
      expect(c.hit.expectedChanceHits!).toBeLessThan(1);
      // The calculator with the analysis's own parameters gives the hit's number.
      const run = await call<{ populations: { combinedIndex: number }[] }>('POST', `/api/analyses/${analysis!.id}/analyze`, { profileIds: [ids.get('STAIN'), ids.get(c.candidate)], populationIds: [populationId] });
      expect(run.status, run.raw).toBe(200);
      expect(run.body.populations[0]!.combinedIndex).toBe(c.hit.combinedIndex);
    }
  });
});

describe('POST /api/mixture-search', () => {
  const analysisId = async () => (await t.database.db.select().from(analyses).where(eq(analyses.name, 'Mixture, 3 contributors')))[0]!.id;

  it('ranks the contributors first among the organization\'s references, each with the calculator\'s LR and its p-value', async () => {
    const body = { organizationId: org.a, analysisId: await analysisId(), replicates: [{ profileId: ids.get('STAIN') }], populationIds: [populationId], limit: 10 };
    // The statistics come through the search queue's cache (read again only when the population changed).
    await t.app.searchRuntime.queue.idle();
    const cache = t.app.searchRuntime.queue.populations;
    const load = cache.load.bind(cache);
    const asked: string[][] = [];
    cache.load = (db, ids) => (asked.push([...ids]), load(db, ids));
    const res = await call<{ candidates: { sampleName: string; profileId: string; results: { lr: number; pValue: number | null }[] }[]; searchedProfiles: number; populations: { dropout: number[] }[]; hp: string; hd: string; truncated: boolean }>('POST', '/api/mixture-search', body);
    cache.load = load;
    expect(res.status, res.raw).toBe(200);
    expect(asked).toEqual([[populationId]]);
    const names = res.body.candidates.map((c) => c.sampleName);
    expect(names.slice(0, 2).every((n) => n.startsWith('CONTRIBUTOR'))).toBe(true);
    expect(names.indexOf('CONTRIBUTOR-0')).toBeLessThan(names.findIndex((n) => n.startsWith('OFFENDER')));
    expect(names).not.toContain('STAIN');
    expect(names).not.toContain('CONTRIBUTOR-0-BERGEN');
    // 40 offenders and 3 contributors of Oslo (the stain is no reference); the list is cut at 10.
    expect(res.body.searchedProfiles).toBe(43);
    expect(res.body.truncated).toBe(true);
    expect(res.body.candidates).toHaveLength(10);
    expect(res.body).toMatchObject({ hp: 'the candidate and 2 unknowns', hd: '3 unknowns' });
    const lrs = res.body.candidates.map((c) => c.results[0]!.lr);
    expect([...lrs].sort((a, b) => b - a)).toEqual(lrs);
    // The calculator's number for the top candidate, with the drop-out the search used.
    const d = res.body.populations[0]!.dropout;
    const reference = await call<{ lr: number }>('POST', '/api/mixture-lr', { replicates: [{ profileId: ids.get('STAIN') }], personOfInterest: { profileId: res.body.candidates[0]!.profileId }, contributors: 3, dropout: { mode: 'fixed', values: d }, dropIn: 0.05, theta: 0.01, populationId });
    expect(reference.status, reference.raw).toBe(200);
    expect(res.body.candidates[0]!.results[0]!.lr).toBe(reference.body.lr);
    expect(res.body.candidates[0]!.results[0]!.pValue!).toBeLessThan(0.01);
  });

  // Issue 30: Hd's drop-outs set in the search as in the calculator, and the answer says which and how.
  it('weighs with Hd’s drop-outs as given or by LRmix’s convention, states them and how, as the calculator does', async () => {
    type Answer = { candidates: { profileId: string; results: { lr: number }[] }[]; populations: { dropout: number[]; dropoutHd: number[]; dropoutHdRule: string | null }[] };
    const search = async (dropout: object) =>
      call<Answer>('POST', '/api/mixture-search', { organizationId: org.a, analysisId: await analysisId(), replicates: [{ profileId: ids.get('STAIN') }], populationIds: [populationId], limit: 3, setting: { contributors: 3, dropout: { mode: 'fixed', values: [0.1, 0.2, 0.3], ...dropout }, dropIn: 0.05, theta: 0.01, personOfInterestTypedUnderHd: true, normalizeFrequencies: false } });
    const calculator = async (profileId: string, dropout: object) => (await call<{ lr: number }>('POST', '/api/mixture-lr', { replicates: [{ profileId: ids.get('STAIN') }], personOfInterest: { profileId }, contributors: 3, dropout: { mode: 'fixed', values: [0.1, 0.2, 0.3], ...dropout }, dropIn: 0.05, theta: 0.01, populationId })).body.lr;

    const lrmix = await search({});
    expect(lrmix.status, lrmix.raw).toBe(200);
    // The unknown in the candidate's place takes the unknowns' 0.2 (Hp's first unknown), not the candidate's 0.1.
    expect(lrmix.body.populations[0]).toMatchObject({ dropout: [0.1, 0.2, 0.3], dropoutHd: [0.2, 0.2, 0.3], dropoutHdRule: "LRmix convention: Hd's unknown in the candidate's place takes the unknowns' drop-out (LRmix Studio, forensim)" });
    const top = lrmix.body.candidates[0]!;
    expect(top.results[0]!.lr).toBe(await calculator(top.profileId, {}));

    const given = await search({ hdValues: [0.15, 0.25, 0.35] });
    expect(given.body.populations[0]).toMatchObject({ dropoutHd: [0.15, 0.25, 0.35], dropoutHdRule: "Hd's drop-outs set by the user" });
    const same = given.body.candidates.find((c) => c.profileId === top.profileId)!;
    expect(same.results[0]!.lr).toBe(await calculator(top.profileId, { hdValues: [0.15, 0.25, 0.35] }));
    expect(same.results[0]!.lr).not.toBe(top.results[0]!.lr);
  });

  it('weighs a typed mixture as the stored one, and refuses what it cannot search', async () => {
    const typed = { markers: [...stain].map(([marker, alleles]) => ({ marker, alleles: [...alleles] })) };
    const body = { organizationId: org.a, analysisId: await analysisId(), replicates: [typed], populationIds: [populationId], limit: 5 };
    const res = await call<{ candidates: { sampleName: string; results: { lr: number }[] }[] }>('POST', '/api/mixture-search', body);
    expect(res.status, res.raw).toBe(200);
    const stored = await call<{ candidates: { sampleName: string; results: { lr: number }[] }[] }>('POST', '/api/mixture-search', { ...body, replicates: [{ profileId: ids.get('STAIN') }] });
    expect(res.body.candidates).toEqual(stored.body.candidates);
    const identity = (await t.database.db.select().from(analyses).where(eq(analyses.name, 'Identity')))[0]!.id;
    expect((await call('POST', '/api/mixture-search', { ...body, analysisId: identity })).status).toBe(400);
    expect((await call('POST', '/api/mixture-search', { ...body, organizationId: org.b })).status).toBe(403);
  });
});
