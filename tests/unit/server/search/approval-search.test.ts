/**
 * Approving a profile searches it in the background with the automatic search rules of its sample type
 * (ARCHITECTURE.md "Search policy"); each match is one pending hit carrying every population's figures,
 * never duplicated, never naming another organization's profile.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisResult } from '../../../../core/schemas/analyses';
import type { HitSummary } from '../../../../core/schemas/hits';
import type { Profile, ProfileWithMarkers } from '../../../../core/schemas/profiles';
import type { SearchJob } from '../../../../core/schemas/searches';
import { analyses, caseTypes, chemistries, markers, profiles } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';
import { multipartBody } from '../../../helpers/multipart';

const FBI_2015 = readFileSync(path.resolve(import.meta.dirname, '../../../../../shared/data/frequencies/fbi2015.csv'));

// A single-source profile on the 20 CODIS core loci (alleles observed in FBI 2015 Caucasian).
const SUSPECT: Record<string, string[]> = {
  CSF1PO: ['10', '12'], D3S1358: ['15', '16'], D5S818: ['11', '12'], D7S820: ['8', '10'], D8S1179: ['13', '14'],
  D13S317: ['11'], D16S539: ['9', '11'], D18S51: ['14', '17'], D21S11: ['29', '30'], FGA: ['21', '24'],
  TH01: ['6', '9.3'], TPOX: ['8'], vWA: ['16', '17'], D1S1656: ['12', '15'], D2S441: ['10', '14'],
  D2S1338: ['17', '23'], D10S1248: ['13', '15'], D12S391: ['18', '20'], D19S433: ['13', '14'], D22S1045: ['15', '16'],
};
// Nothing in common with the suspect at most loci: no analysis reaches its threshold.
const STRANGER: Record<string, string[]> = Object.fromEntries(Object.keys(SUSPECT).map((m) => [m, m === 'TPOX' ? ['11'] : ['7', '8']]));

let t: TestApp;
const org = { a: '', b: '' };
const caseOf = { a: '', b: '' };
const tokens = {} as Record<'admin' | 'a' | 'b', string>;
let userA = '';
let identityId = '';

function call<T = unknown>(who: keyof typeof tokens, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}` }, ...(payload ? { payload } : {}) }).then((res) => ({ status: res.statusCode, body: res.json() as T, raw: res.body }));
}

async function addProfile(who: 'a' | 'b', sampleName: string, genotypes: Record<string, string[]>, sampleType = 'Forensic, Unknown'): Promise<ProfileWithMarkers> {
  const db = t.database.db;
  const [chem] = await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler'));
  const ids = new Map((await db.select().from(markers)).map((m) => [m.name, m.id]));
  const added = await call<{ items: Profile[] }>(who, 'POST', '/api/profiles', { caseId: caseOf[who], chemistryId: chem!.id, sampleType, sampleSourceId: null, physicalItemId: null, laboratoryId: null, comments: '', profiles: [{ profileId: sampleName, markerValues: [] }] });
  const p = added.body.items[0]!;
  const entered = await call<ProfileWithMarkers>(who, 'PUT', `/api/profiles/${p.id}/markers`, { version: p.version, markerValues: Object.entries(genotypes).map(([m, alleles]) => ({ markerId: ids.get(m)!, alleles })) });
  expect(entered.status, entered.raw).toBe(200);
  return entered.body;
}

async function approve(who: 'a' | 'b', profile: ProfileWithMarkers): Promise<ProfileWithMarkers> {
  const res = await call<ProfileWithMarkers>(who, 'POST', `/api/profiles/${profile.id}/approve`, { version: profile.version, comments: '', markerValues: profile.markerValues.map(({ markerId, alleles }) => ({ markerId, alleles })) });
  expect(res.status, res.raw).toBe(200);
  return res.body;
}

/** Waits until every search of the organization has finished, as the hit screens poll it. */
async function searchesDone(who: 'a' | 'b', orgId: string): Promise<SearchJob[]> {
  for (let i = 0; i < 200; i++) {
    const jobs = (await call<{ items: SearchJob[] }>(who, 'GET', `/api/organizations/${orgId}/searches`)).body.items;
    if (jobs.every((j) => j.status === 'done' || j.status === 'failed')) return jobs;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('searches did not finish');
}

const pendingHits = async (who: 'a' | 'b', orgId: string) => (await call<{ items: HitSummary[]; count: number }>(who, 'GET', `/api/organizations/${orgId}/pending-hits?pageSize=100`)).body;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  org.a = (await createOrganization(db, 'Oslo Lab')).id;
  org.b = (await createOrganization(db, 'Bergen Lab')).id;
  const admin = await createAccessGroup(db, { isAdmin: true });
  const lab = await createAccessGroup(db, { grants: { Cases: ['Read', 'Add', 'Edit'], Profiles: ['Read', 'Add', 'Edit', 'Reset'], Hits: ['Read', 'Publish', 'Reset'], Analyses: ['Read'], Populations: ['Read'] } });
  tokens.admin = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admin.id })).id);
  userA = (await createUser(db, { accessGroupId: lab.id, organizationIds: [org.a] })).id;
  tokens.a = t.verifier.issue(userA);
  tokens.b = t.verifier.issue((await createUser(db, { accessGroupId: lab.id, organizationIds: [org.b] })).id);
  identityId = (await db.select().from(analyses).where(eq(analyses.name, 'Identity')))[0]!.id;
  const [caseType] = await db.select().from(caseTypes).limit(1);
  for (const who of ['a', 'b'] as const) {
    caseOf[who] = (await call<{ id: string }>(who, 'POST', '/api/cases', { caseNumber: `SEARCH-${who}`, caseTypeId: caseType!.id, organizationId: org[who], assignedUserIds: [] })).body.id;
  }
  // One population shared with both laboratories.
  const pop = (await call<{ id: string; version: number }>('admin', 'POST', '/api/populations', { name: 'FBI 2015 Caucasian', kind: 'Autosomal', organizationIds: [org.a, org.b] })).body;
  const form = await multipartBody({ version: String(pop.version), population: 'Caucasian' }, { name: 'fbi2015.csv', bytes: FBI_2015, type: 'text/csv' });
  const saved = await t.app.inject({ method: 'POST', url: `/api/populations/${pop.id}/statistics`, payload: form.payload, headers: { ...form.headers, authorization: `Bearer ${tokens.admin}` } });
  expect(saved.statusCode, saved.body).toBe(200);
}, 90_000);
afterAll(() => t.close());

describe('the database search started by an approval', () => {
  let evidence: ProfileWithMarkers;
  let reference: ProfileWithMarkers;

  it('records one pending Identity hit when a second copy of a profile is approved, with the calculator’s combined index', async () => {
    evidence = await approve('a', await addProfile('a', 'EVIDENCE-1', SUSPECT));
    await approve('a', await addProfile('a', 'STRANGER-1', STRANGER, 'Convicted Offender'));
    await searchesDone('a', org.a);
    expect((await pendingHits('a', org.a)).count).toBe(0);

    reference = await approve('a', await addProfile('a', 'REFERENCE-1', SUSPECT, 'Convicted Offender'));
    const jobs = await searchesDone('a', org.a);
    expect(jobs[0]).toMatchObject({ sampleName: 'REFERENCE-1', status: 'done' });
    expect(jobs[0]!.total).toBeGreaterThan(0);
    expect(jobs[0]!.done).toBe(jobs[0]!.total);

    const { items } = await pendingHits('a', org.a);
    // One match is one hit: no kinship hit beside it, nothing per population.
    expect(items).toHaveLength(1);
    const identity = items.filter((h) => h.analysisId === identityId);
    expect(identity).toHaveLength(1);
    expect(identity[0]).toMatchObject({ matchKind: 'identity', searchRuleName: 'Offenders, arrestees and suspects against forensic unknowns', synthetic: false });
    expect(Object.fromEntries(identity[0]!.profiles.map((p) => [p.sampleName, p.role]))).toEqual({ 'EVIDENCE-1': 'Evidence', 'REFERENCE-1': 'Reference' });
    const figures = identity[0]!.figures!;
    expect(figures.populations.map((p) => [p.populationName, p.reported])).toEqual([['FBI 2015 Caucasian', true]]);
    expect(figures.stringency).toMatchObject({ stringency: 'moderate', comparedMarkers: 20, mismatches: 0, searchedProfiles: 1 });
    // The chance that an unrelated profile meets moderate stringency at 20 loci is tiny, and N = 1 forensic profile was searched.
    expect(figures.stringency!.probability).toBeGreaterThan(0);
    expect(figures.stringency!.probability).toBeLessThan(1e-10);
    expect(identity[0]!.expectedChanceHits).toBe(figures.stringency!.probability);
    // Matching the genotype exactly is rarer than meeting moderate stringency (a homozygote fits a heterozygote).
    expect(identity[0]!.pValue).toBeGreaterThan(0);
    expect(identity[0]!.pValue).toBeLessThan(figures.stringency!.probability);
    expect(identity[0]!.profiles.map((p) => p.sampleName).sort()).toEqual(['EVIDENCE-1', 'REFERENCE-1']);
    // No hit names the stranger.
    expect(items.flatMap((h) => h.profiles.map((p) => p.sampleName))).not.toContain('STRANGER-1');

    const roles = identity[0]!.profiles.sort((x, y) => x.position - y.position).map((p) => p.profileId);
    const calculated = await call<AnalysisResult>('a', 'POST', `/api/analyses/${identityId}/analyze`, { profileIds: roles, populationIds: [identity[0]!.populationId] });
    expect(Math.abs(Math.log10(identity[0]!.combinedIndex!) - calculated.body.populations[0]!.log10!)).toBeLessThan(1e-9);
    expect(identity[0]!.probability).toBe(calculated.body.populations[0]!.probability);
  });

  it('never records the same hit twice: a reset and a second approval find it again but add nothing', async () => {
    const before = (await pendingHits('a', org.a)).count;
    const reset = await call<ProfileWithMarkers>('a', 'POST', `/api/profiles/${evidence.id}/reset`, { version: (await call<ProfileWithMarkers>('a', 'GET', `/api/profiles/${evidence.id}`)).body.version, comments: 'checked' });
    expect(reset.status, reset.raw).toBe(200);
    // The reset withdrew its pending hits.
    expect((await pendingHits('a', org.a)).count).toBe(0);
    await approve('a', reset.body);
    await searchesDone('a', org.a);
    expect((await pendingHits('a', org.a)).count).toBe(before);
    // Approving again ran the search again, and it found the same hit: still one.
    const again = await call<ProfileWithMarkers>('a', 'GET', `/api/profiles/${reference.id}`);
    expect(again.body.status).toBe('approved');
    expect((await pendingHits('a', org.a)).count).toBe(before);
  });

  it('never names another organization’s profile: the same genotype approved in Bergen finds nothing in Oslo, and Oslo sees no Bergen hit', async () => {
    const osloBefore = (await pendingHits('a', org.a)).count;
    await approve('b', await addProfile('b', 'BERGEN-1', SUSPECT));
    await searchesDone('b', org.b);
    expect((await pendingHits('b', org.b)).count).toBe(0);
    expect((await pendingHits('a', org.a)).count).toBe(osloBefore);
    // Bergen's own second copy is a Bergen hit, invisible to Oslo.
    await approve('b', await addProfile('b', 'BERGEN-2', SUSPECT, 'Convicted Offender'));
    await searchesDone('b', org.b);
    const bergen = await pendingHits('b', org.b);
    expect(bergen.items.filter((h) => h.analysisId === identityId)).toHaveLength(1);
    expect(bergen.items.every((h) => h.profiles.every((p) => p.organizationId === org.b))).toBe(true);
    expect((await pendingHits('a', org.a)).count).toBe(osloBefore);
    const foreign = bergen.items[0]!;
    expect((await call('a', 'GET', `/api/hits/${foreign.id}`)).status).toBe(404);
    expect((await call('a', 'GET', `/api/organizations/${org.b}/searches`)).status).toBe(403);
  });

  it('marks a finished search on the profile, and a restart searches the approvals a stop cut off, and only those', async () => {
    const db = t.database.db;
    const searchedOf = async (id: string) => (await db.select({ reviewedAt: profiles.reviewedAt, searchedAt: profiles.searchedAt }).from(profiles).where(eq(profiles.id, id)))[0]!;
    const done = await searchedOf(reference.id);
    expect(done.searchedAt).not.toBeNull();
    expect(done.searchedAt).toEqual(done.reviewedAt);

    // The approval committed, then the process stopped before its search ran.
    const cutOff = await addProfile('a', 'CUT-OFF-1', SUSPECT);
    await db.update(profiles).set({ status: 'approved', reviewedAt: new Date(), searchedAt: null }).where(eq(profiles.id, cutOff.id));
    const before = (await pendingHits('a', org.a)).items.filter((h) => h.profiles.some((p) => p.sampleName === 'CUT-OFF-1'));
    expect(before).toHaveLength(0);

    const restarted = await createTestApp({ database: t.database });
    try {
      const token = restarted.verifier.issue(userA);
      let jobs: SearchJob[] = [];
      for (let i = 0; i < 200 && !(jobs.length > 0 && jobs.every((j) => j.status === 'done')); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        jobs = (await restarted.app.inject({ method: 'GET', url: `/api/organizations/${org.a}/searches`, headers: { authorization: `Bearer ${token}` } })).json<{ items: SearchJob[] }>().items;
      }
      // Only the cut-off approval was searched again; the others had finished.
      expect(jobs.map((j) => [j.sampleName, j.status])).toEqual([['CUT-OFF-1', 'done']]);
    } finally {
      await restarted.app.close();
    }
    const found = (await pendingHits('a', org.a)).items.filter((h) => h.analysisId === identityId && h.profiles.some((p) => p.sampleName === 'CUT-OFF-1'));
    expect(found.map((h) => h.profiles.map((p) => p.sampleName).sort())).toEqual(
      expect.arrayContaining([
        ['CUT-OFF-1', 'EVIDENCE-1'],
        ['CUT-OFF-1', 'REFERENCE-1'],
      ]),
    );
    expect(found).toHaveLength(2);
    const marked = await searchedOf(cutOff.id);
    expect(marked.searchedAt).toEqual(marked.reviewedAt);
  });
});
