/**
 * The number-of-contributors search as a job (issue 31: "the NoC search over 1..4 … with progress and cancel"): the
 * models fitted one by one on a worker, the same figures as the calculator's own search, the best marked, a model too
 * large refused with its reason (not an HTTP 500), cancel keeping what was fitted, and only its starter reads it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContinuousLrResult, ContributorSearchJob } from '../../../../core/schemas/continuous';
import { closeWorkerPools, workerPool } from '../../../../server/jobs/worker-pool';
import { continuousBenchBody } from '../../../../bench/continuous-bench';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';

/** The job's worker file, whose pool the job runs on (server/jobs/contributor-search-jobs.ts). */
const SEARCH_WORKER = new URL('../../../../server/jobs/contributor-search-worker.ts', import.meta.url);

let t: TestApp;
const tokens = {} as Record<'analyst' | 'other' | 'clerk', string>;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const oslo = (await createOrganization(db, 'Oslo Lab')).id;
  const bergen = (await createOrganization(db, 'Bergen Lab')).id;
  const analyst = await createAccessGroup(db, { grants: { Analyses: ['Read'], Populations: ['Read'], Profiles: ['Read'] } });
  const clerk = await createAccessGroup(db, { grants: { Cases: ['Read'] } });
  tokens.analyst = t.verifier.issue((await createUser(db, { accessGroupId: analyst.id, organizationIds: [oslo] })).id);
  tokens.other = t.verifier.issue((await createUser(db, { accessGroupId: analyst.id, organizationIds: [bergen] })).id);
  tokens.clerk = t.verifier.issue((await createUser(db, { accessGroupId: clerk.id, organizationIds: [oslo] })).id);
}, 60_000);
afterAll(async () => {
  await closeWorkerPools();
  await t.close();
});

const headers = (who: keyof typeof tokens) => ({ authorization: `Bearer ${tokens[who]}` });
const start = (who: keyof typeof tokens, payload: object) => t.app.inject({ method: 'POST', url: '/api/continuous-lr/contributor-search', headers: headers(who), payload });
const read = (who: keyof typeof tokens, id: string) => t.app.inject({ method: 'GET', url: `/api/continuous-lr/contributor-search/${id}`, headers: headers(who) });
const cancel = (who: keyof typeof tokens, id: string) => t.app.inject({ method: 'POST', url: `/api/continuous-lr/contributor-search/${id}/cancel`, headers: headers(who) });

/** Reads the job until it has finished; every state read on the way. */
async function settle(id: string): Promise<ContributorSearchJob[]> {
  const seen: ContributorSearchJob[] = [];
  for (;;) {
    const job = (await read('analyst', id)).json() as ContributorSearchJob;
    seen.push(job);
    if (job.state !== 'running') return seen;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// One marker, ten peaks of a two-person stain (each allele 5 %): 11 genotype alleles with Q, 66 genotypes; three
// unknowns sum 66³ + 66² = 291,852 joint genotypes per evaluation, fitted from the 2-contributor optimum; four pass the
// search's bound on work. From there Hd's fit ran up a ridge where ln L grows without bound as σ → 0 (the new
// contributor's 100 RFU turning 900 and 850 into 1000 and 950, four peaks matched exactly) and stalled: 500 iterations
// of 30 evaluations (about 150 s), the test waiting.
const ALLELES = Array.from({ length: 20 }, (_, i) => `${i + 5}`);
const HEIGHTS = [900, 850, 400, 380, 1000, 950, 420, 390, 880, 410];
const CASE = {
  replicates: [{ markers: [{ marker: 'D3S1358', peaks: HEIGHTS.map((height, i) => ({ allele: `${i + 8}`, height })) }] }],
  personOfInterest: { markers: [{ marker: 'D3S1358', alleles: ['8', '9'] }] },
  frequencies: { markers: [{ marker: 'D3S1358', alleles: ALLELES.map((allele) => ({ allele, frequency: 0.05 })) }] },
  normalizeFrequencies: false,
  parameters: { mode: 'fit', starts: 2, seed: 3 },
};

/** The figures a search gives per model, as the job and POST continuous-lr both list them. */
const figures = ({ logLikelihoodHp, logLikelihoodHd, aic, bic, log10Lr, best, note, fittedHd }: ContributorSearchJob['models'][number] | NonNullable<ContinuousLrResult['contributorSearch']>[number]) => ({ logLikelihoodHp, logLikelihoodHd, aic, bic, log10Lr, best, note, fittedHd });

describe('the number-of-contributors search job', () => {
  it('fits 1..3 contributors on a worker with progress (3 from the 2-contributor optimum, ending on its ridge with the reason), refuses 4 with the reason, and gives the calculator’s own figures', async () => {
    const res = await start('analyst', { ...CASE, contributorSearch: { from: 1, to: 4 } });
    expect(res.statusCode, res.body).toBe(202);
    const job = res.json() as ContributorSearchJob;
    expect(job.state).toBe('running');
    expect(job.models.map((m) => [m.contributors, m.state])).toEqual([[1, 'waiting'], [2, 'waiting'], [3, 'waiting'], [4, 'refused']]);
    expect(job.modelsTotal).toBe(3);
    expect(job.models[2]!.jointGenotypes).toBe(66 ** 3 + 66 ** 2);
    expect(job.models[3]!.jointGenotypes).toBe(66 ** 4 + 66 ** 3);
    expect(job.models[3]!.reason).toBe('A search up to 4 contributors sums 19558573 joint genotypes over the markers, more than the 1700000 a search fits in about 30 s; search fewer contributors or condition on known ones.');

    const seen = await settle(job.id);
    const done = seen.at(-1)!;
    // Progress read on the way: a model being fitted while the job ran.
    expect(seen.some((j) => j.state === 'running' && j.models.some((m) => m.state === 'fitting'))).toBe(true);
    expect(done).toMatchObject({ state: 'done', modelsDone: 3, modelsTotal: 3, message: '1 model(s) not fitted: see each one\'s reason.' });
    expect(done.elapsedMs).toBeGreaterThanOrEqual(0);
    for (const m of done.models.slice(0, 3)) {
      expect(m.state).toBe('fitted');
      expect(m.aic).toBeCloseTo(2 * m.parameters - 2 * m.logLikelihoodHd!, 9);
      expect(m.bic).toBeCloseTo(m.parameters * Math.log(10) - 2 * m.logLikelihoodHd!, 9);
    }
    const [one, two, three] = done.models;
    expect(three!.fittedHd!.mx).toHaveLength(3);
    expect(three!.fittedHp!.mx).toHaveLength(3);
    // Three contributors can do what two do (a share of 0), so their fits are no lower.
    expect(three!.logLikelihoodHd!).toBeGreaterThan(two!.logLikelihoodHd! - 0.01);
    expect(three!.logLikelihoodHp!).toBeGreaterThan(two!.logLikelihoodHp! - 0.01);
    // Hd's fit ends on the ridge, said so (no hang, no 500): σ near 0, ln L higher than any maximum, not converged.
    expect([one!.note, two!.note]).toEqual([null, null]);
    expect(three!.note).toBe('Hd: The best start stopped where no step improved the likelihood but the gradient was not flat.');
    expect(three!.fittedHd!.sigma).toBeLessThan(0.001);
    expect(two!.logLikelihoodHd!).toBeGreaterThan(one!.logLikelihoodHd!);
    expect(done.models.filter((m) => m.best).map((m) => m.contributors)).toEqual([3]);

    // The same search inline (POST continuous-lr) gives the same figures, bit for bit.
    const inline = await t.app.inject({ method: 'POST', url: '/api/continuous-lr', headers: headers('analyst'), payload: { ...CASE, contributors: 1, contributorSearch: { from: 1, to: 2 } } });
    expect(inline.statusCode, inline.body).toBe(200);
    expect(done.models.slice(0, 2).map((m) => ({ ...figures(m), best: false }))).toEqual((inline.json() as ContinuousLrResult).contributorSearch!.map((m) => ({ ...figures(m), best: false })));

    // Only its starter reads or cancels it; a user without Analyses Read is refused.
    expect((await read('other', job.id)).statusCode).toBe(404);
    expect((await cancel('other', job.id)).statusCode).toBe(404);
    expect((await read('clerk', job.id)).statusCode).toBe(403);
    expect((await cancel('analyst', job.id)).statusCode).toBe(409);
  }, 120_000);

  it('cancels a running search: its worker stops, nothing is marked best, and a new one can start', async () => {
    const models = [{}, { backwardStutter: true }, { backwardStutter: true, forwardStutter: true }];
    const res = await start('analyst', { ...CASE, contributorSearch: { from: 1, to: 2, models } });
    expect(res.statusCode, res.body).toBe(202);
    const job = res.json() as ContributorSearchJob;
    expect(job.models.map((m) => [m.contributors, m.model.backwardStutter, m.model.forwardStutter])).toEqual([[1, false, false], [1, true, false], [1, true, true], [2, false, false], [2, true, false], [2, true, true]]);
    // One running search per user.
    expect((await start('analyst', { ...CASE, contributorSearch: { from: 1, to: 1 } })).statusCode).toBe(409);
    const cancelled = await cancel('analyst', job.id);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const end = (await settle(job.id)).at(-1)!;
    expect(end.state).toBe('cancelled');
    expect(end.modelsDone).toBeLessThan(6);
    expect(end.models.some((m) => m.best)).toBe(false);
    expect(end.models.filter((m) => m.state === 'cancelled').length).toBe(6 - end.modelsDone);
    expect(end.message).toMatch(/^Cancelled after \d of 6 models: those fitted are listed, none is marked best\.$/);
    const again = await start('analyst', { ...CASE, contributorSearch: { from: 1, to: 1 } });
    expect(again.statusCode, again.body).toBe(202);
    expect((await settle((again.json() as ContributorSearchJob).id)).at(-1)!.state).toBe('done');
  });

  it('fits the ESX17 stain over 1..4 with four unknowns (from the 3-contributor optimum), progress per model; cancel stops the 4-unknown fit on its worker and keeps the three fitted', async () => {
    // EuroForMix's ESX17 stain (three replicates), ref1 the person of interest, degradation and both stutters, cut to
    // FGA and D16S539: four unknowns sum 194,481 + 10,773 = 205,254 joint genotypes per evaluation (refused by the job before).
    const body = { ...continuousBenchBody(['FGA', 'D16S539']), contributors: 1, contributorSearch: { from: 1, to: 4 } };
    const res = await start('analyst', body);
    expect(res.statusCode, res.body).toBe(202);
    const job = res.json() as ContributorSearchJob;
    expect(job.models.map((m) => [m.contributors, m.state, m.jointGenotypes])).toEqual([[1, 'waiting', 29], [2, 'waiting', 504], [3, 'waiting', 9954], [4, 'waiting', 205_254]]);
    const seen = await settle(job.id);
    const done = seen.at(-1)!;
    // Progress while the four unknowns were fitted, the three smaller models listed with their figures by then.
    expect(seen.some((j) => j.state === 'running' && j.models[3]!.state === 'fitting' && j.modelsDone === 3)).toBe(true);
    expect(done).toMatchObject({ state: 'done', modelsDone: 4, modelsTotal: 4, message: null });
    expect(done.models.map((m) => [m.state, m.note])).toEqual(Array.from({ length: 4 }, () => ['fitted', null]));
    const [three, four] = [done.models[2]!, done.models[3]!];
    expect(four.fittedHd!.mx).toHaveLength(4);
    expect(four.fittedHp!.mx).toHaveLength(4);
    expect(four.logLikelihoodHd!).toBeGreaterThan(three.logLikelihoodHd! - 0.01);
    expect(done.models.filter((m) => m.best)).toHaveLength(1);
    // The calculator's own search (POST continuous-lr) gives the same figures, bit for bit: one code path.
    const inline = await t.app.inject({ method: 'POST', url: '/api/continuous-lr', headers: headers('analyst'), payload: body });
    expect(inline.statusCode, inline.body).toBe(200);
    expect(done.models.map(figures)).toEqual((inline.json() as ContinuousLrResult).contributorSearch!.map(figures));

    // Again, cancelled while the four unknowns are being fitted: the worker running the fit is terminated at once.
    const again = (await start('analyst', body)).json() as ContributorSearchJob;
    for (let j = again; j.models[3]!.state !== 'fitting'; j = (await read('analyst', again.id)).json() as ContributorSearchJob) {
      expect(j.state).toBe('running');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const threads = workerPool(SEARCH_WORKER).threads.length;
    expect((await cancel('analyst', again.id)).statusCode).toBe(200);
    // The thread that was fitting is gone (terminated, not left to finish the fit).
    expect(workerPool(SEARCH_WORKER).threads).toHaveLength(threads - 1);
    const end = (await settle(again.id)).at(-1)!;
    expect(end).toMatchObject({ state: 'cancelled', modelsDone: 3, message: 'Cancelled after 3 of 4 models: those fitted are listed, none is marked best.' });
    expect(end.models.map((m) => m.state)).toEqual(['fitted', 'fitted', 'fitted', 'cancelled']);
    expect(end.models.slice(0, 3).map(figures)).toEqual(done.models.slice(0, 3).map((m) => ({ ...figures(m), best: false })));
  }, 60_000);

  it('refuses what it cannot search, with the reason', async () => {
    const fixed = await start('analyst', { ...CASE, parameters: { mode: 'fixed', hp: { mx: [1], mu: 900, sigma: 0.15 }, hd: { mx: [1], mu: 900, sigma: 0.15 } }, contributorSearch: { from: 1, to: 2 } });
    expect(fixed.statusCode).toBe(400);
    expect(fixed.json().error).toBe('A search over the number of contributors fits each model: give "fit", not fixed parameters.');
    const backwards = await start('analyst', { ...CASE, contributorSearch: { from: 3, to: 2 } });
    expect(backwards.statusCode).toBe(400);
    expect((await start('clerk', { ...CASE, contributorSearch: { from: 1, to: 2 } })).statusCode).toBe(403);
    expect((await read('analyst', '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });
});
