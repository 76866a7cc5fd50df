/**
 * Issue 16: pedigree analyses are data. The seed family shapes run through `POST analyses/{id}/analyze` and give
 * the numbers of `POST pedigree-lr` for the same pedigree; a pairwise analysis with a mutation model weighs every
 * transmission instead of μ/A; the administrator's pedigree and models are checked when saved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Analysis, AnalysisResult } from '../../../../core/schemas/analyses';
import type { PedigreeLrResult } from '../../../../core/schemas/pedigrees';
import { analyses, caseTypes } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';
import { addProfileWithMarkers, uploadFbiPopulation } from '../../../helpers/calculator-fixtures';

let t: TestApp;
let caseId: string;
let populationId: string;
const tokens = {} as Record<'admin' | 'analyst', string>;
const analysisIds = new Map<string, string>();

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  const org = (await createOrganization(db, 'Oslo Lab')).id;
  const admin = await createAccessGroup(db, { isAdmin: true });
  const analyst = await createAccessGroup(db, { grants: { Cases: ['Read', 'Add', 'Edit'], Profiles: ['Read', 'Add', 'Edit'], Analyses: ['Read'], Populations: ['Read'] } });
  tokens.admin = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admin.id })).id);
  tokens.analyst = t.verifier.issue((await createUser(db, { accessGroupId: analyst.id, organizationIds: [org] })).id);
  const [caseType] = await db.select().from(caseTypes).limit(1);
  caseId = (await call('analyst', 'POST', '/api/cases', { caseNumber: 'MP-7', caseTypeId: caseType!.id, organizationId: org, assignedUserIds: [] })).json().id;
  populationId = await uploadFbiPopulation(t, tokens.admin, [org]);
  for (const a of await db.select({ id: analyses.id, name: analyses.name }).from(analyses)) analysisIds.set(a.name, a.id);
}, 60_000);
afterAll(() => t.close());

function call(who: keyof typeof tokens, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}` }, ...(payload ? { payload } : {}) });
}
const addProfile = (name: string, genotypes: Record<string, string[]>) => addProfileWithMarkers(t, tokens.analyst, caseId, name, genotypes, { sampleType: 'Biological Mother' });
const relClose = (a: number, b: number) => Math.abs(a - b) <= 1e-12 * Math.abs(b);

async function analyze(name: string, profileIds: string[], extra: object = {}): Promise<AnalysisResult> {
  const res = await call('analyst', 'POST', `/api/analyses/${analysisIds.get(name)}/analyze`, { profileIds, populationIds: [populationId], ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as AnalysisResult;
}

describe('pedigree analyses', () => {
  it('shows a seed family shape with its pedigree, tested person and stepwise models', async () => {
    const res = await call('analyst', 'GET', `/api/analyses/${analysisIds.get('Mother and full sister')}`);
    const analysis = res.json() as Analysis;
    expect(analysis).toMatchObject({ kind: 'Pedigree', roles: ['Missing person', 'Mother', 'Full sister'], missingPatterns: [], formulaCount: 0 });
    expect(analysis.pedigree!.target).toBe('Missing person');
    expect(analysis.pedigree!.persons.find((p) => p.id === 'Full sister')).toEqual({ id: 'Full sister', sex: 'female', father: 'Father', mother: 'Mother' });
    expect(analysis.mutation).toEqual({ female: { model: 'stepwise', rate: 0.001, rate2: 0.00001, range: 0.1 }, male: { model: 'stepwise', rate: 0.003, rate2: 0.00001, range: 0.1 }, markers: [] });
  });

  it('"Mother and full sister" gives the LR of the same pedigrees through pedigree-lr, naming the marker that needs a mutation', async () => {
    const remains = await addProfile('MP-REMAINS', { D3S1358: ['16', '17'], vWA: ['16', '18'], TH01: ['9.3'], FGA: ['21', '24'], D8S1179: ['12', '13'] });
    const mother = await addProfile('MP-MOTHER', { D3S1358: ['15', '16'], vWA: ['16', '17'], TH01: ['6', '9.3'], FGA: ['20', '22'], D8S1179: ['13'] });
    const sister = await addProfile('MP-SISTER', { D3S1358: ['15', '17'], vWA: ['16'], TH01: ['9.3', '8'], FGA: ['20', '24'], D8S1179: ['13', '15'] });
    const result = await analyze('Mother and full sister', [remains, mother, sister]);
    expect(result.kind).toBe('Pedigree');
    expect(result.pedigree!.target).toBe('Missing person');
    // H2: the missing person a founder, everything else as drawn.
    expect(result.pedigree!.h2.find((p) => p.id === 'Missing person')).toEqual({ id: 'Missing person', sex: 'male' });
    expect(result.mutation!.text).toBe('female: stepwise, rate 0.001, rate2 0.00001, range 0.1; male: stepwise, rate 0.003, rate2 0.00001, range 0.1');
    const [population] = result.populations;
    // FGA: the mother carries 20/22, the remains 21/24: one step from 20 or 22 (a maternal mutation).
    expect(population!.markersNeedingMutation).toEqual(['FGA']);
    expect(population!.excludedMarkers).toEqual([]);
    expect(population!.markers.find((m) => m.marker === 'FGA')!.pedigree!.verdict).toBe('needs a mutation');

    const reference = (await call('analyst', 'POST', '/api/pedigree-lr', {
      h1: result.pedigree!.h1,
      h2: result.pedigree!.h2,
      typed: [{ person: 'Missing person', profileId: remains }, { person: 'Mother', profileId: mother }, { person: 'Full sister', profileId: sister }],
      populationId,
      mutation: result.mutation,
    })).json() as PedigreeLrResult;
    const evaluated = population!.markers.filter((m) => m.value !== null);
    expect(evaluated.map((m) => m.marker)).toEqual(reference.markers.map((m) => m.marker));
    for (const m of evaluated) {
      const r = reference.markers.find((x) => x.marker === m.marker)!;
      expect(relClose(m.value!, r.lr), m.marker).toBe(true);
      expect(m.pedigree).toMatchObject({ likelihoodH1: r.likelihoodH1, likelihoodH2: r.likelihoodH2, alleles: r.alleles, frequencies: r.frequencies });
    }
    expect(relClose(population!.combinedIndex!, reference.lr)).toBe(true);
  });

  it('paternal grandparents without mutation equal the hand formula: t_a p_b + t_b p_a over 2 p_a p_b', async () => {
    const remains = await addProfile('GP-REMAINS', { D3S1358: ['15', '17'], vWA: ['14', '16'] });
    const grandfather = await addProfile('GP-GF', { D3S1358: ['15', '16'], vWA: ['16'] });
    const grandmother = await addProfile('GP-GM', { D3S1358: ['15', '18'], vWA: ['17', '18'] });
    const none = { female: { model: 'trivial' }, male: { model: 'trivial' }, markers: [] };
    const result = await analyze('Paternal grandparents', [remains, grandfather, grandmother], { mutation: none });
    const [population] = result.populations;
    const value = (marker: string, a: string, b: string, grandparents: string[]) => {
      const m = population!.markers.find((x) => x.marker === marker)!;
      const p = (x: string) => m.pedigree!.frequencies[m.pedigree!.alleles.indexOf(x)]!;
      // The father passes one of his parents' four alleles (each ¼); the mother one from the population.
      const t = (x: string) => grandparents.filter((g) => g === x).length / 4;
      const expected = (t(a) * p(b) + t(b) * p(a)) / (2 * p(a) * p(b));
      return [m.value!, expected];
    };
    const [d3, d3Expected] = value('D3S1358', '15', '17', ['15', '16', '15', '18']);
    expect(relClose(d3!, d3Expected!)).toBe(true);
    const [vwa, vwaExpected] = value('vWA', '14', '16', ['16', '16', '17', '18']);
    expect(relClose(vwa!, vwaExpected!)).toBe(true);
    expect(result.mutation!.text).toBe('female: no mutation; male: no mutation');
  });

  it('a pairwise analysis keeps its formula table, and weighs each transmission once it has a mutation model', async () => {
    const child = await addProfile('DUO-CHILD', { D3S1358: ['15', '16'], vWA: ['14', '16'] });
    const parent = await addProfile('DUO-FATHER', { D3S1358: ['16', '17'], vWA: ['15', '17'] });
    // No model: the formula table, μ/A at the inconsistent vWA.
    const table = await analyze('Parent–child', [child, parent]);
    expect(table.pedigree).toBeNull();
    expect(table.populations[0]!.markers.find((m) => m.marker === 'vWA')!.expression).toBe('mu/A');
    // A stepwise model for this run: vWA needs a (paternal) mutation; the numbers are pedigree-lr's.
    const stepwise = { female: { model: 'stepwise', rate: 0.001, rate2: 0, range: 0.1 }, male: { model: 'stepwise', rate: 0.004, rate2: 0, range: 0.1 }, markers: [] };
    const weighed = await analyze('Parent–child', [child, parent], { mutation: stepwise });
    const population = weighed.populations[0]!;
    expect(population.markersNeedingMutation).toEqual(['vWA']);
    expect(population.conclusion).toBeNull();
    const reference = (await call('analyst', 'POST', '/api/pedigree-lr', {
      h1: weighed.pedigree!.h1,
      h2: weighed.pedigree!.h2,
      typed: [{ person: 'Child', profileId: child }, { person: 'Alleged parent', profileId: parent }],
      populationId,
      mutation: stepwise,
    })).json() as PedigreeLrResult;
    expect(relClose(population.combinedIndex!, reference.lr)).toBe(true);
    // Stored on the analysis, the same model applies without being sent.
    const current = (await call('admin', 'GET', `/api/analyses/${analysisIds.get('Parent–child')}`)).json() as Analysis;
    const { id: _id, analysisGroupId: _g, analysisGroupName: _n, formulaCount: _f, constantCount: _c, missingPatterns: _m, ...input } = current;
    const saved = await call('admin', 'PUT', `/api/analyses/${current.id}`, { ...input, mutation: stepwise });
    expect(saved.statusCode, saved.body).toBe(200);
    const stored = await analyze('Parent–child', [child, parent]);
    expect(stored.populations[0]!.combinedIndex).toBe(population.combinedIndex);
    expect(stored.mutation!.text).toBe('female: stepwise, rate 0.001, rate2 0, range 0.1; male: stepwise, rate 0.004, rate2 0, range 0.1');
    // An edit that does not send the pedigree or the model keeps them.
    const { pedigree: _p, mutation: _mu, ...withoutPedigree } = { ...input, version: (saved.json() as Analysis).version };
    expect(((await call('admin', 'PUT', `/api/analyses/${current.id}`, withoutPedigree)).json() as Analysis).mutation).toEqual(stepwise);
  });

  it('refuses pedigrees and models that cannot be used, naming the field', async () => {
    const groupId = (await call('admin', 'GET', `/api/analyses/${analysisIds.get('Both parents')}`)).json().analysisGroupId as string;
    const family = {
      analysisGroupId: groupId,
      name: 'Grandmother and aunt',
      label: '',
      kind: 'Pedigree',
      profileKind: 'Autosomal',
      roles: ['Missing person', 'Grandmother', 'Aunt'],
      threshold: 1000,
      active: true,
      pedigree: {
        persons: [
          { id: 'Grandfather', sex: 'male' },
          { id: 'Grandmother', sex: 'female' },
          { id: 'Father', sex: 'male', father: 'Grandfather', mother: 'Grandmother' },
          { id: 'Aunt', sex: 'female', father: 'Grandfather', mother: 'Grandmother' },
          { id: 'Mother', sex: 'female' },
          { id: 'Missing person', sex: 'female', father: 'Father', mother: 'Mother' },
        ],
        target: 'Missing person',
        alternative: null,
      },
      mutation: { female: { model: 'equal', rate: 0.001 }, male: { model: 'onestep', rate: 0.002 }, markers: [] },
    };
    const refused = async (payload: object, path: string, message: RegExp) => {
      const res = await call('admin', 'POST', '/api/analyses', payload);
      expect(res.statusCode, res.body).toBe(400);
      const body = res.json() as { error: string; details?: { path: string; message: string }[] };
      expect([body.error, ...(body.details ?? []).map((d) => d.message)].join(' | ')).toMatch(message);
      expect((body.details ?? []).map((d) => d.path)).toContain(path);
    };
    await refused({ ...family, pedigree: { ...family.pedigree, target: 'Aunt ' + 'x' } }, '/pedigree', /tested person Aunt x must be one of the roles/);
    await refused({ ...family, roles: ['Missing person', 'Grandmother', 'Uncle'] }, '/pedigree', /role Uncle is not a person of the pedigree/);
    await refused({ ...family, pedigree: { ...family.pedigree, persons: family.pedigree.persons.map((p) => (p.id === 'Father' ? { ...p, mother: 'Grandfather' } : p)) } }, '/pedigree', /mother Grandfather must be female/);
    await refused({ ...family, pedigree: null }, '/pedigree', /Draw the pedigree/);
    await refused({ ...family, mutation: { ...family.mutation, male: { model: 'stepwise', rate: 0.7, rate2: 0.5, range: 0.1 } } }, '/mutation/male', /together .* must be at most 1/);
    await refused({ ...family, kind: 'Computational', roles: ['Missing person', 'Grandmother', 'Aunt', 'Grandfather'] }, '/roles', /At most 3 roles/);
    await refused({ ...family, kind: 'Exclusion', mutation: null, roles: ['Missing person', 'Grandmother'] }, '/pedigree', /exclusion analysis has no pedigree/);
    await refused({ ...family, kind: 'Computational', pedigree: null }, '/mutation', /needs the analysis's pedigree/);

    const created = await call('admin', 'POST', '/api/analyses', family);
    expect(created.statusCode, created.body).toBe(201);
    const analysis = created.json() as Analysis;
    expect(analysis).toMatchObject({ kind: 'Pedigree', missingPatterns: [], pedigree: family.pedigree, mutation: family.mutation });
    // A pedigree analysis has no formula table to fill.
    const formula = await call('admin', 'POST', `/api/analyses/${analysis.id}/formulae`, { pattern: 'PQ-PQ-PQ', expression: '1', isExclusion: null });
    expect(formula.statusCode).toBe(400);
    expect(formula.json().error).toMatch(/no formula table/);
    // A model sent for a run of an analysis without a pedigree is refused.
    const identity = await call('analyst', 'POST', `/api/analyses/${analysisIds.get('Identity')}/analyze`, { profileIds: [analysisIds.get('Identity'), analysisIds.get('Identity')], populationIds: [populationId], mutation: family.mutation });
    expect(identity.statusCode).toBeGreaterThanOrEqual(400);
  });
});
