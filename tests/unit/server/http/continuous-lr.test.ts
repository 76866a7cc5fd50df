/**
 * POST /api/continuous-lr (issue 31): the gamma peak-height model at given parameters (EuroForMix 4.2.4's numbers),
 * fitted on request, every parameter in the answer, clear refusals, and no HTTP 500 on a model that cannot explain the stain.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContinuousLrResult } from '../../../../core/schemas/continuous';
import { closeWorkerPools, workerPool } from '../../../../server/jobs/worker-pool';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';

let t: TestApp;
const tokens = {} as Record<'analyst' | 'clerk', string>;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const org = (await createOrganization(db, 'Oslo Lab')).id;
  const analyst = await createAccessGroup(db, { grants: { Analyses: ['Read'], Populations: ['Read'], Profiles: ['Read'] } });
  const clerk = await createAccessGroup(db, { grants: { Cases: ['Read'] } });
  tokens.analyst = t.verifier.issue((await createUser(db, { accessGroupId: analyst.id, organizationIds: [org] })).id);
  tokens.clerk = t.verifier.issue((await createUser(db, { accessGroupId: clerk.id, organizationIds: [org] })).id);
}, 60_000);
afterAll(async () => {
  await closeWorkerPools();
  await t.close();
});

const post = (who: keyof typeof tokens, payload: object) => t.app.inject({ method: 'POST', url: '/api/continuous-lr', headers: { authorization: `Bearer ${tokens[who]}` }, payload });

const FREQUENCIES = { markers: [{ marker: 'D3S1358', alleles: Object.entries({ 14: 0.1, 15: 0.25, 16: 0.25, 17: 0.2, 18: 0.15, 19: 0.05 }).map(([allele, frequency]) => ({ allele, frequency })) }] };
// EuroForMix 4.2.4's case 1 (tests/unit/server/genetics/continuous/euroformix-reference.test.ts): one contributor, AT 50, c 0.05, λ 0.01.
const CASE_1 = {
  contributors: 1,
  replicates: [{ markers: [{ marker: 'D3S1358', peaks: [{ allele: '15', height: 1000 }, { allele: '17', height: 800 }] }] }],
  personOfInterest: { markers: [{ marker: 'D3S1358', alleles: ['15', '17'] }] },
  frequencies: FREQUENCIES,
  normalizeFrequencies: false,
};
const FIXED = { mode: 'fixed', hp: { mx: [1], mu: 900, sigma: 0.15 }, hd: { mx: [1], mu: 900, sigma: 0.15 } };

describe('POST /api/continuous-lr', () => {
  it('gives EuroForMix\'s log-likelihoods at fixed parameters, the LR per marker and in total, every parameter and the precision', async () => {
    const res = await post('analyst', { ...CASE_1, parameters: FIXED });
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json() as ContinuousLrResult;
    const [hp, hd] = r.hypotheses;
    expect(Math.abs(hp!.logLikelihood! - -12.243159334338957)).toBeLessThan(1e-12);
    expect(Math.abs(hd!.logLikelihood! - -14.545744427254087)).toBeLessThan(1e-12);
    expect(r.log10Lr).toBeCloseTo((-12.243159334338957 + 14.545744427254087) / Math.LN10, 12);
    expect(r.lr).toBeCloseTo(Math.exp(-12.243159334338957 + 14.545744427254087), 10);
    expect(r.markers).toEqual([expect.objectContaining({ marker: 'D3S1358', alleles: ['15', '17', 'Q'], analyticalThreshold: 50, fragmentSizes: null })]);
    expect(r.markers[0]!.frequencies[2]).toBeCloseTo(0.55, 15);
    expect(hp!.parameters).toEqual({ mx: [1], mu: 900, sigma: 0.15, beta: 1, xiB: 0, xiF: 0 });
    expect(r.settings).toMatchObject({ dropIn: 0.05, dropInLambda: 0.01, theta: 0, mode: 'fixed', model: { degradation: false, backwardStutter: false, forwardStutter: false } });
    expect(r.precision).toMatch(/double precision/);
    // Hd's unknown is 15/17 with near certainty.
    expect(hd!.deconvolution[0]).toMatchObject({ contributor: 'Unknown 1', marker: 'D3S1358', genotypes: [expect.objectContaining({ alleles: ['15', '17'] }), ...new Array(4).fill(expect.anything())] });
    expect(hd!.deconvolution[0]!.genotypes[0]!.probability).toBeGreaterThan(0.99);
    // Validation under Hp (one typed contributor): R's (pgamma(y) − pgamma(AT)) / (1 − pgamma(AT)), expected μ per allele.
    expect(hp!.validation!.peaks.map((p) => [p.allele, p.replicate, p.height])).toEqual([['15', 1, 1000], ['17', 1, 800]]);
    expect(hp!.validation!.peaks[0]!.cumulative).toBeCloseTo(0.77772650324355219, 13);
    expect(hp!.validation!.expected.slice(0, 2).map((x) => x.expected)).toEqual([900, 900]);
    expect(hd!.validation!.peaks).toHaveLength(2);
    // Weighed on a worker thread, not on the request thread.
    expect(workerPool(new URL('../../../../server/jobs/continuous-lr-worker.ts', import.meta.url)).completed).toBeGreaterThanOrEqual(1);
  });

  it('fits both hypotheses the same way twice, bit for bit, and says how many starts agree', async () => {
    const body = { ...CASE_1, parameters: { mode: 'fit', starts: 3, seed: 7 } };
    const [a, b] = [await post('analyst', body), await post('analyst', body)];
    expect(a.statusCode, a.body).toBe(200);
    expect(a.body).toBe(b.body);
    const r = a.json() as ContinuousLrResult;
    for (const h of r.hypotheses) expect(h.fit).toMatchObject({ seed: 7, starts: 3, converged: true });
    expect(r.hypotheses[0]!.fit!.agreeing).toBeGreaterThanOrEqual(2);
    expect(r.lr).toBeGreaterThan(1);
  });

  it('searches 1..2 contributors on the worker when asked: both fits side by side with AIC and BIC, one marked best; refuses a search beyond its bound', async () => {
    const two = { ...CASE_1, replicates: [{ markers: [{ marker: 'D3S1358', peaks: [{ allele: '14', height: 300 }, { allele: '15', height: 1000 }, { allele: '17', height: 700 }] }] }] };
    const res = await post('analyst', { ...two, parameters: { mode: 'fit', starts: 2 }, contributorSearch: { from: 1, to: 2 } });
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json() as ContinuousLrResult;
    expect(r.settings.contributors).toBe(1);
    const search = r.contributorSearch!;
    expect(search.map((s) => [s.contributors, s.parameters])).toEqual([[1, 2], [2, 3]]);
    // Three peaks: one contributor needs a drop-in, two explain them; AIC = 2k − 2 log L under Hd.
    expect(search.filter((s) => s.best).map((s) => s.contributors)).toEqual([2]);
    for (const s of search) expect(s.aic).toBeCloseTo(2 * s.parameters - 2 * s.logLikelihoodHd!, 9);
    expect(search[1]!.fittedHd!.mx).toHaveLength(2);
    expect(r.hypotheses[1]!.logLikelihood).toBe(search[0]!.logLikelihoodHd);
    const wide = { markers: [{ marker: 'D3S1358', alleles: Array.from({ length: 20 }, (_, i) => ({ allele: `${i + 5}`, frequency: 0.05 })) }] };
    const many = { ...two, frequencies: wide, replicates: [{ markers: [{ marker: 'D3S1358', peaks: Array.from({ length: 8 }, (_, i) => ({ allele: `${i + 8}`, height: 500 })) }] }] };
    const refused = await post('analyst', { ...many, parameters: { mode: 'fit' }, contributorSearch: { from: 1, to: 4 } });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error).toMatch(/A search up to \d contributors sums \d+ joint genotypes/);
  });

  it('refuses what it cannot weigh, with the reason', async () => {
    const refusals: [object, RegExp][] = [
      [{ ...CASE_1, parameters: { ...FIXED, hp: { mx: [0.9], mu: 900, sigma: 0.15 } } }, /sum to 0\.9, not 1/],
      [{ ...CASE_1, model: { forwardStutter: true }, parameters: { mode: 'fit' } }, /forward stutter model needs the backward/],
      [{ ...CASE_1, model: { degradation: true }, parameters: FIXED }, /D3S1358: degradation needs the fragment size of allele 15/],
      [{ ...CASE_1, knownContributors: [{ markers: [{ marker: 'D3S1358', alleles: ['15'] }] }], parameters: FIXED }, /at least 2/],
      [{ ...CASE_1, parameters: FIXED, populationId: '00000000-0000-4000-8000-000000000000' }, /either populationId or frequencies/],
    ];
    for (const [body, message] of refusals) {
      const res = await post('analyst', body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatch(message);
    }
    expect((await post('clerk', { ...CASE_1, parameters: FIXED })).statusCode).toBe(403);
  });

  it('answers, not HTTP 500, when no single contributor without drop-in explains three peaks: no LR, and why', async () => {
    const three = { ...CASE_1, dropIn: 0, replicates: [{ markers: [{ marker: 'D3S1358', peaks: [{ allele: '15', height: 1000 }, { allele: '16', height: 900 }, { allele: '17', height: 800 }] }] }] };
    for (const parameters of [FIXED, { mode: 'fit', starts: 2 }]) {
      const res = await post('analyst', { ...three, parameters });
      expect(res.statusCode, res.body).toBe(200);
      const r = res.json() as ContinuousLrResult;
      expect(r.lr).toBeNull();
      expect(r.log10Lr).toBeNull();
      expect(r.note).toMatch(/likelihood 0 under Hd/);
      expect(r.hypotheses[1]!.note).toMatch(/likelihood 0|No parameter values/);
      expect(r.hypotheses[1]!.logLikelihood).toBeNull();
    }
  });
});
