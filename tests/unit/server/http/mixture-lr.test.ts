/**
 * POST /api/mixture-lr (issue 17): every parameter in the request and the answer, the numbers the engine's hand
 * formulas give, stored profiles read within the caller's organizations, and clear refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MixtureLrResult } from '../../../../core/schemas/mixtures';
import { caseTypes } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';
import { addProfileWithMarkers, uploadFbiPopulation } from '../../../helpers/calculator-fixtures';

let t: TestApp;
let caseId: string;
let populationId: string;
const tokens = {} as Record<'admin' | 'analystA' | 'analystB' | 'noAnalyses', string>;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  const orgA = (await createOrganization(db, 'Oslo Lab')).id;
  const orgB = (await createOrganization(db, 'Bergen Lab')).id;
  const admin = await createAccessGroup(db, { isAdmin: true });
  const analyst = await createAccessGroup(db, { grants: { Cases: ['Read', 'Add', 'Edit'], Profiles: ['Read', 'Add', 'Edit'], Analyses: ['Read'], Populations: ['Read'] } });
  const clerk = await createAccessGroup(db, { grants: { Cases: ['Read'], Profiles: ['Read'] } });
  tokens.admin = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admin.id })).id);
  tokens.analystA = t.verifier.issue((await createUser(db, { accessGroupId: analyst.id, organizationIds: [orgA] })).id);
  tokens.analystB = t.verifier.issue((await createUser(db, { accessGroupId: analyst.id, organizationIds: [orgB] })).id);
  tokens.noAnalyses = t.verifier.issue((await createUser(db, { accessGroupId: clerk.id, organizationIds: [orgA] })).id);
  const [caseType] = await db.select().from(caseTypes).limit(1);
  caseId = (await call('analystA', 'POST', '/api/cases', { caseNumber: 'MIX-1', caseTypeId: caseType!.id, organizationId: orgA, assignedUserIds: [] })).json().id;
  populationId = await uploadFbiPopulation(t, tokens.admin, [orgA]);
}, 60_000);
afterAll(() => t.close());

function call(who: keyof typeof tokens, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}` }, ...(payload ? { payload } : {}) });
}

const FREQUENCIES = { markers: [{ marker: 'D1', alleles: [10, 11, 12, 13].map((a, i) => ({ allele: String(a), frequency: [0.1, 0.2, 0.3, 0.4][i]! })), sampleSize: null }], minimumAlleleFrequency: 0.001 };
const written = (alleles: string[]) => ({ markers: [{ marker: 'D1', alleles }] });

describe('POST /api/mixture-lr', () => {
  it('answers a single-source stain with drop-out and drop-in as computed by hand, every parameter in the answer', async () => {
    const [d, c, p] = [0.3, 0.05, 0.1];
    const res = await call('analystA', 'POST', '/api/mixture-lr', {
      replicates: [written(['10'])],
      personOfInterest: written(['10', '11']),
      contributors: 1,
      dropout: { mode: 'fixed', values: [d] },
      dropIn: c,
      theta: 0,
      personOfInterestTypedUnderHd: true,
      normalizeFrequencies: false,
      estimateDropout: true,
      frequencies: FREQUENCIES,
    });
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json() as MixtureLrResult;
    const hd = (1 - c) * (p * p * (1 - d * d) + 2 * p * (1 - p) * (1 - d) * d) + c * p * d * d * (1 - p) ** 2;
    expect(r.markers[0]!.likelihoodHp).toBeCloseTo((1 - d) * d * (1 - c), 15);
    expect(Math.abs(r.markers[0]!.likelihoodHd - hd) / hd).toBeLessThan(1e-12);
    expect(Math.abs(r.lr - ((1 - d) * d * (1 - c)) / hd) / r.lr).toBeLessThan(1e-12);
    expect(r.markers[0]).toMatchObject({ marker: 'D1', alleles: ['10', 'other'], frequencies: [0.1, 0.9], replicates: [['10']], explained: ['10'], droppedOut: ['11'], unexplained: [], personOfInterest: ['10', '11'] });
    expect(r.parameters).toMatchObject({ contributors: 1, dropIn: c, theta: 0, dropoutHp: [d], dropoutHd: [d], hp: 'the person of interest', hd: '1 unknown', personOfInterestTypedUnderHd: true, normalizeFrequencies: false, population: { id: null, minimumAlleleFrequency: 0.001 } });
    // Both estimates shown beside the LR when asked for: (1 − d)d peaks at ½ under Hp.
    expect(r.estimates.map((e) => e.hypothesis)).toEqual(['Hp', 'Hd']);
    expect(r.estimates[0]!.maximumLikelihood).toBeCloseTo(0.5, 6);
  });

  it('weighs stored profiles of the caller\'s organization: a three-allele mixture, its contributor and a known victim', async () => {
    const stain = await addProfileWithMarkers(t, tokens.analystA, caseId, 'STAIN-1', { D3S1358: ['14', '15', '16', '17'], vWA: ['16', '17', '18'], TH01: ['6', '9.3'] }, { sampleType: 'Forensic Mixture' });
    const suspect = await addProfileWithMarkers(t, tokens.analystA, caseId, 'SUSP-1', { D3S1358: ['14', '16'], vWA: ['16', '18'], TH01: ['6', '9.3'] }, { sampleType: 'Suspect, Known' });
    const victim = await addProfileWithMarkers(t, tokens.analystA, caseId, 'VICT-1', { D3S1358: ['15', '17'], vWA: ['17'], TH01: ['9.3'] }, { sampleType: 'Victim, Known' });
    const body = { replicates: [{ profileId: stain }], personOfInterest: { profileId: suspect }, knownContributors: [{ profileId: victim }], contributors: 2, dropout: { mode: 'estimated', estimate: 'maximum-likelihood' }, dropIn: 0.05, theta: 0.01, populationId, estimateDropout: true };
    const res = await call('analystA', 'POST', '/api/mixture-lr', body);
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json() as MixtureLrResult;
    expect(r.markers.map((m) => m.marker).sort()).toEqual(['D3S1358', 'TH01', 'vWA']);
    expect(r.log10).toBeGreaterThan(2);
    expect(r.parameters.hp).toBe('the person of interest and 1 known contributor');
    expect(r.parameters.hd).toBe('1 known contributor and 1 unknown');
    expect(r.parameters.dropoutHp).toEqual([r.estimates[0]!.maximumLikelihood, r.estimates[0]!.maximumLikelihood]);
    expect(r.parameters.dropoutHd).toEqual([r.estimates[1]!.maximumLikelihood, r.estimates[1]!.maximumLikelihood]);
    expect(r.markers.find((m) => m.marker === 'vWA')!.knownContributors).toEqual([['17']]);
    // Another organization's analyst cannot read the profiles; a user without Analyses Read cannot call.
    expect((await call('analystB', 'POST', '/api/mixture-lr', body)).statusCode).toBe(404);
    expect((await call('noAnalyses', 'POST', '/api/mixture-lr', body)).statusCode).toBe(403);
  });

  it('refuses what it cannot weigh with the reason', async () => {
    const ok = { replicates: [written(['10', '11'])], personOfInterest: written(['10', '11']), contributors: 1, dropout: { mode: 'fixed', values: [0] }, dropIn: 0, theta: 0, frequencies: FREQUENCIES };
    const refusal = async (over: object) => {
      const res = await call('analystA', 'POST', '/api/mixture-lr', { ...ok, ...over });
      expect(res.statusCode, res.body).toBe(400);
      return res.json().error as string;
    };
    expect(await refusal({ populationId })).toMatch(/either populationId or frequencies/);
    expect(await refusal({ knownContributors: [written(['12'])] })).toMatch(/at least 2/);
    expect(await refusal({ contributors: 2, dropout: { mode: 'fixed', values: [0, 0, 0] } })).toMatch(/one per contributor \(2\)/);
    expect(await refusal({ replicates: [written(['10', '11', '12'])] })).toMatch(/impossible under Hd/);
    expect(await refusal({ dropIn: 1 })).toBeTruthy();
  });

  it('answers LR 0, not HTTP 500, when drop-in is 0 and the person of interest is excluded; each estimate says no drop-out explains Hp', async () => {
    const excluded = { replicates: [written(['10', '12'])], personOfInterest: written(['10', '11']), contributors: 1, dropIn: 0, theta: 0, frequencies: FREQUENCIES };
    for (const dropout of [{ mode: 'fixed', values: [0.2] }, { mode: 'estimated', estimate: 'maximum-likelihood' }, { mode: 'estimated', estimate: 'conservative' }]) {
      const res = await call('analystA', 'POST', '/api/mixture-lr', { ...excluded, dropout, estimateDropout: true });
      expect(res.statusCode, res.body).toBe(200);
      const r = res.json() as MixtureLrResult;
      expect([r.lr, r.log10, r.markers[0]!.lr, r.markers[0]!.log10]).toEqual([0, null, 0, null]);
      const hp = r.estimates.find((e) => e.hypothesis === 'Hp')!;
      expect(hp).toMatchObject({ maximumLikelihood: null, log10Likelihood: null, conservative: null });
      expect(hp.note).toMatch(/No drop-out explains the evidence under Hp/);
    }
  });

  it('states Hd\'s drop-outs: LRmix\'s by default (the unknowns\' value), or as given', async () => {
    const stain = { replicates: [written(['10', '11', '12'])], personOfInterest: written(['10', '11']), contributors: 2, dropIn: 0.05, theta: 0, frequencies: FREQUENCIES };
    const lrmix = (await call('analystA', 'POST', '/api/mixture-lr', { ...stain, dropout: { mode: 'fixed', values: [0.1, 0.3] } })).json() as MixtureLrResult;
    expect(lrmix.parameters).toMatchObject({ dropoutHp: [0.1, 0.3], dropoutHd: [0.3, 0.3], dropoutHdRule: expect.stringMatching(/LRmix Studio/) });
    expect(lrmix.estimates).toEqual([]);
    const given = (await call('analystA', 'POST', '/api/mixture-lr', { ...stain, dropout: { mode: 'fixed', values: [0.1, 0.3], hdValues: [0.1, 0.3] } })).json() as MixtureLrResult;
    expect(given.parameters).toMatchObject({ dropoutHd: [0.1, 0.3], dropoutHdRule: "Hd's drop-outs set by the user" });
    expect(given.lr).not.toBeCloseTo(lrmix.lr, 3);
  });
});

describe('mixture analyses (kind Mixture)', () => {
  const mixtureAnalysis = async (name: string) => {
    const groups = (await call('admin', 'GET', '/api/analysis-groups?pageSize=100')).json() as { items: { id: string; name: string }[] };
    const group = groups.items.find((g) => g.name === 'Mixtures')!;
    const list = (await call('admin', 'GET', `/api/analysis-groups/${group.id}/analyses?pageSize=100`)).json() as { items: { id: string; name: string }[] };
    return (await call('admin', 'GET', `/api/analyses/${list.items.find((a) => a.name === name)!.id}`)).json() as { id: string; kind: string; mixture: unknown };
  };

  it('the seed holds two- and three-person mixture analyses; the calculator gives mixture-lr\'s numbers, with a replicate and a known contributor', async () => {
    const seeded = await mixtureAnalysis('Mixture, 2 contributors');
    expect(seeded).toMatchObject({ kind: 'Mixture', mixture: { contributors: 2, dropIn: 0.05, theta: 0.01, dropout: { mode: 'estimated', estimate: 'conservative' } } });
    expect((await mixtureAnalysis('Mixture, 3 contributors')).kind).toBe('Mixture');
    const stain = await addProfileWithMarkers(t, tokens.analystA, caseId, 'STAIN-2', { D3S1358: ['14', '15', '16', '17'], vWA: ['16', '17', '18'], TH01: ['6', '9.3'] }, { sampleType: 'Forensic Mixture' });
    const replicate = await addProfileWithMarkers(t, tokens.analystA, caseId, 'STAIN-2b', { D3S1358: ['14', '15', '17'], vWA: ['16', '17', '18'], TH01: ['6', '9.3'] }, { sampleType: 'Forensic Mixture' });
    const suspect = await addProfileWithMarkers(t, tokens.analystA, caseId, 'SUSP-2', { D3S1358: ['14', '16'], vWA: ['16', '18'], TH01: ['6', '9.3'] }, { sampleType: 'Suspect, Known' });
    const victim = await addProfileWithMarkers(t, tokens.analystA, caseId, 'VICT-2', { D3S1358: ['15', '17'], vWA: ['17'], TH01: ['9.3'] }, { sampleType: 'Victim, Known' });
    const setting = { contributors: 2, dropout: { mode: 'fixed', values: [0.1, 0.05] }, dropIn: 0.05, theta: 0.01, personOfInterestTypedUnderHd: true, normalizeFrequencies: false };
    const res = await call('analystA', 'POST', `/api/analyses/${seeded.id}/analyze`, { profileIds: [stain, suspect], populationIds: [populationId], mixture: { replicateProfileIds: [replicate], knownContributorIds: [victim], setting } });
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json();
    expect(result.roles.map((r: { role: string }) => r.role)).toEqual(['Evidence', 'Person of interest', 'Evidence (replicate 2)', 'Known contributor 1']);
    const population = result.populations[0];
    const reference = (await call('analystA', 'POST', '/api/mixture-lr', { ...setting, replicates: [{ profileId: stain }, { profileId: replicate }], personOfInterest: { profileId: suspect }, knownContributors: [{ profileId: victim }], populationId })).json() as MixtureLrResult;
    expect(population.combinedIndex).toBe(reference.lr);
    expect(population.mixture.markers).toEqual(reference.markers);
    expect(population.mixture.parameters).toEqual(reference.parameters);
    expect(population.markers.find((m: { marker: string }) => m.marker === 'D3S1358').value).toBe(reference.markers.find((m) => m.marker === 'D3S1358')!.lr);
    // The analysis's own parameters when the run gives none: the conservative drop-out under Hd for everyone.
    const own = (await call('analystA', 'POST', `/api/analyses/${seeded.id}/analyze`, { profileIds: [stain, suspect], populationIds: [populationId] })).json();
    const used = own.populations[0].mixture;
    // Only the estimate the drop-out uses, unless the reader asks for both.
    expect(used.estimates.map((e: { hypothesis: string }) => e.hypothesis)).toEqual(['Hd']);
    expect(used.parameters.dropoutHp).toEqual([used.estimates[0].conservative, used.estimates[0].conservative]);
    const asked = (await call('analystA', 'POST', `/api/analyses/${seeded.id}/analyze`, { profileIds: [stain, suspect], populationIds: [populationId], mixture: { estimateDropout: true } })).json();
    expect(asked.populations[0].mixture.estimates.map((e: { hypothesis: string }) => e.hypothesis)).toEqual(['Hp', 'Hd']);
    expect(used.parameters.hd).toBe('2 unknowns');
  });

  it('saves a mixture analysis only with its parameters, two roles and autosomal profiles', async () => {
    const groups = (await call('admin', 'GET', '/api/analysis-groups?pageSize=100')).json() as { items: { id: string; name: string }[] };
    const group = groups.items.find((g) => g.name === 'Mixtures')!;
    const input = { analysisGroupId: group.id, name: 'Mixture, 4 contributors', label: '', kind: 'Mixture', profileKind: 'Autosomal', roles: ['Evidence', 'Person of interest'], threshold: 1e6, active: true, mixture: { contributors: 4, dropout: { mode: 'fixed', values: [0.1] }, dropIn: 0.05, theta: 0.01 } };
    const created = await call('admin', 'POST', '/api/analyses', input);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().mixture).toMatchObject({ contributors: 4, personOfInterestTypedUnderHd: true, normalizeFrequencies: false });
    expect(created.json().missingPatterns).toEqual([]);
    const formula = await call('admin', 'POST', `/api/analyses/${created.json().id}/formulae`, { pattern: 'PQ-PQ', expression: '1', isExclusion: null });
    expect(formula.statusCode).toBe(400);
    expect(formula.json().error).toMatch(/no formula table/);
    const refused = async (over: object, path: string) => {
      const res = await call('admin', 'POST', '/api/analyses', { ...input, name: `x${Math.random()}`, ...over });
      expect(res.statusCode, res.body).toBe(400);
      expect(JSON.stringify(res.json())).toContain(path);
    };
    await refused({ mixture: null }, '/mixture');
    await refused({ roles: ['Evidence'] }, 'roles');
    await refused({ profileKind: 'YStr' }, '/profileKind');
    await refused({ mixture: { ...input.mixture, dropout: { mode: 'fixed', values: [0.1, 0.2] } } }, '/mixture/dropout/values');
    await refused({ kind: 'Computational', roles: ['A', 'B'] }, '/mixture');
  });
});
