import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PedigreeLrResult } from '../../../../core/schemas/pedigrees';
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
  caseId = (await call('analystA', 'POST', '/api/cases', { caseNumber: 'MP-1', caseTypeId: caseType!.id, organizationId: orgA, assignedUserIds: [] })).json().id;
  populationId = await uploadFbiPopulation(t, tokens.admin, [orgA]);
}, 60_000);
afterAll(() => t.close());

function call(who: keyof typeof tokens, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}` }, ...(payload ? { payload } : {}) });
}

const addProfile = (profileId: string, genotypes: Record<string, string[]>) => addProfileWithMarkers(t, tokens.analystA, caseId, profileId, genotypes, { sampleType: 'Biological Mother' });

const DUO_H1 = [
  { id: 'AF', sex: 'male' },
  { id: 'MO', sex: 'female' },
  { id: 'CH', sex: 'male', father: 'AF', mother: 'MO' },
];
const DUO_H2 = [
  { id: 'AF', sex: 'male' },
  { id: 'CH', sex: 'male' },
];
const FOUR = { marker: 'D1', alleles: [10, 11, 12, 13].map((a, i) => ({ allele: String(a), frequency: [0.1, 0.2, 0.3, 0.4][i]! })), sampleSize: null };

describe('POST /api/pedigree-lr', () => {
  it('answers a stepwise duo needing a mutation with every parameter in the answer, the LR computed by hand', async () => {
    const female = { model: 'stepwise', rate: 0.001, rate2: 0, range: 0.1 } as const;
    const male = { model: 'stepwise', rate: 0.004, rate2: 0, range: 0.1 } as const;
    const res = await call('analystA', 'POST', '/api/pedigree-lr', {
      h1: DUO_H1,
      h2: DUO_H2,
      typed: [
        { person: 'AF', markers: [{ marker: 'D1', alleles: ['10', '12'] }] },
        { person: 'CH', markers: [{ marker: 'D1', alleles: ['11', '13'] }] },
      ],
      frequencies: { markers: [FOUR] },
      mutation: { female, male },
    });
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json() as PedigreeLrResult;
    const [d1] = result.markers;
    expect(d1!.verdict).toBe('needs a mutation');
    expect(d1!.alleles).toEqual(['10', '11', '12', '13']);
    expect(d1!.frequencies).toEqual([0.1, 0.2, 0.3, 0.4]);
    expect(d1!.mutation.text).toBe('female: stepwise, rate 0.001, rate2 0, range 0.1; male: stepwise, rate 0.004, rate2 0, range 0.1');
    expect(d1!.genotypes).toEqual([{ person: 'AF', alleles: ['10', '12'] }, { person: 'CH', alleles: ['11', '13'] }]);
    // By hand: the stepwise rows (one microvariant group, range 0.1) of 10 and 12, and of every allele for the mother.
    const row = (rate: number, from: number) => {
      const weights = [10, 11, 12, 13].map((to) => (to === from ? 0 : 0.1 ** Math.abs(to - from)));
      const total = weights.reduce((s, w) => s + w, 0);
      return weights.map((w, j) => ([10, 11, 12, 13][j] === from ? 1 - rate : (w / total) * rate));
    };
    const p = [0.1, 0.2, 0.3, 0.4];
    const fatherGives = (j: number) => 0.5 * row(0.004, 10)[j]! + 0.5 * row(0.004, 12)[j]!;
    const motherGives = (j: number) => [10, 11, 12, 13].reduce((s, b, i) => s + p[i]! * row(0.001, b)[j]!, 0);
    const lr = (fatherGives(1) * motherGives(3) + fatherGives(3) * motherGives(1)) / (2 * 0.2 * 0.4);
    expect(Math.abs(result.lr - lr) / lr).toBeLessThan(1e-12);
    expect(result.log10).toBeCloseTo(Math.log10(lr), 12);
    expect(result.population).toEqual({ id: null, name: 'Frequencies given in the request', minimumAlleleFrequency: 0.001 });
  });

  it('places stored profiles into the roles over a stored population: mother and full sister of a missing person', async () => {
    const genotypes = { D3S1358: ['15', '16'], vWA: ['16', '17'], TH01: ['6', '9.3'], Amelogenin: ['X'] };
    const mother = await addProfile('MOTHER-1', genotypes);
    const sister = await addProfile('SISTER-1', { D3S1358: ['15', '17'], vWA: ['16'], TH01: ['9.3', '8'], Amelogenin: ['X'] });
    const remains = await addProfile('REMAINS-1', { D3S1358: ['16', '17'], vWA: ['16', '18'], TH01: ['9.3'], Amelogenin: ['X', 'Y'] });
    const family = [
      { id: 'FA', sex: 'male' },
      { id: 'MO', sex: 'female' },
      { id: 'SIS', sex: 'female', father: 'FA', mother: 'MO' },
      { id: 'MP', sex: 'male', father: 'FA', mother: 'MO' },
    ];
    const body = {
      h1: family,
      h2: [{ id: 'MO', sex: 'female' }, { id: 'SIS', sex: 'female' }, { id: 'MP', sex: 'male' }],
      typed: [{ person: 'MO', profileId: mother }, { person: 'SIS', profileId: sister }, { person: 'MP', profileId: remains }],
      populationId,
      mutation: { female: { model: 'equal', rate: 0.001 }, male: { model: 'equal', rate: 0.002 } },
    };
    const res = await call('analystA', 'POST', '/api/pedigree-lr', body);
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json() as PedigreeLrResult;
    expect(result.markers.map((m) => [m.marker, m.verdict])).toEqual([['D3S1358', 'consistent'], ['vWA', 'consistent'], ['TH01', 'consistent']]);
    expect(result.skippedMarkers).toEqual(['Amelogenin']);
    expect(result.population.name).toBe('FBI 2015 Caucasian');
    const product = result.markers.reduce((s, m) => s * m.lr, 1);
    expect(Math.abs(result.lr - product) / product).toBeLessThan(1e-12);
    // Another organization's analyst cannot place these profiles (nor see the population).
    expect((await call('analystB', 'POST', '/api/pedigree-lr', { ...body, populationId: undefined, frequencies: { markers: [FOUR] } })).statusCode).toBe(404);
  });

  it('refuses what it cannot compute, saying why', async () => {
    const base = { h1: DUO_H1, h2: DUO_H2, typed: [{ person: 'AF', markers: [{ marker: 'D1', alleles: ['10', '12'] }] }], frequencies: { markers: [FOUR] }, mutation: { female: { model: 'trivial' }, male: { model: 'trivial' } } };
    const refused = async (body: object, status: number, message: RegExp) => {
      const res = await call('analystA', 'POST', '/api/pedigree-lr', body);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().error).toMatch(message);
    };
    await refused({ ...base, populationId }, 400, /either populationId or frequencies/);
    await refused({ ...base, h1: [{ id: 'CH', sex: 'male', father: 'AF' }, { id: 'AF', sex: 'male' }] }, 400, /CH has one parent/);
    await refused({ ...base, typed: [{ person: 'XX', markers: [{ marker: 'D1', alleles: ['10'] }] }] }, 400, /XX is typed but missing from H1/);
    await refused({ ...base, mutation: { female: { model: 'onestep', rate: 0.01 }, male: { model: 'custom', matrix: [[1]] } } }, 400, /4 × 4/);
    expect((await call('noAnalyses', 'POST', '/api/pedigree-lr', base)).statusCode).toBe(403);
  });
});
