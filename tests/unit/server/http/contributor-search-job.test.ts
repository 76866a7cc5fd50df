/**
 * The number-of-contributors search as a job (issue 31: "the NoC search over 1..4 … with progress and cancel"): the
 * models fitted one by one on a worker, the same figures as the calculator's own search, the best marked, a model too
 * large refused with its reason (not an HTTP 500), cancel keeping what was fitted, and only its starter reads it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContinuousLrResult, ContributorSearchJob } from '../../../../core/schemas/continuous';
import { closeWorkerPools } from '../../../../server/jobs/worker-pool';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';

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
// unknowns sum 66³ + 66² = 291,852 joint genotypes per evaluation, beyond the bound of one fit.
const ALLELES = Array.from({ length: 20 }, (_, i) => `${i + 5}`);
const HEIGHTS = [900, 850, 400, 380, 1000, 950, 420, 390, 880, 410];
const CASE = {
  replicates: [{ markers: [{ marker: 'D3S1358', peaks: HEIGHTS.map((height, i) => ({ allele: `${i + 8}`, height })) }] }],
  personOfInterest: { markers: [{ marker: 'D3S1358', alleles: ['8', '9'] }] },
  frequencies: { markers: [{ marker: 'D3S1358', alleles: ALLELES.map((allele) => ({ allele, frequency: 0.05 })) }] },
  normalizeFrequencies: false,
  parameters: { mode: 'fit', starts: 2, seed: 3 },
};

describe('the number-of-contributors search job', () => {
  it('fits 1..4 contributors on a worker with progress, refuses the two too large with the reason, and gives the calculator’s own figures', async () => {
    const res = await start('analyst', { ...CASE, contributorSearch: { from: 1, to: 4 } });
    expect(res.statusCode, res.body).toBe(202);
    const job = res.json() as ContributorSearchJob;
    expect(job.state).toBe('running');
    expect(job.models.map((m) => [m.contributors, m.state])).toEqual([[1, 'waiting'], [2, 'waiting'], [3, 'refused'], [4, 'refused']]);
    expect(job.modelsTotal).toBe(2);
    expect(job.models[2]!.jointGenotypes).toBe(66 ** 3 + 66 ** 2);
    expect(job.models[2]!.reason).toBe('3 unknowns under Hd sum 291852 joint genotypes over the markers per evaluation, more than the 150000 one fit takes in about 30 s; condition on known contributors to search it.');

    const seen = await settle(job.id);
    const done = seen.at(-1)!;
    // Progress read on the way: a model being fitted while the job ran.
    expect(seen.some((j) => j.state === 'running' && j.models.some((m) => m.state === 'fitting'))).toBe(true);
    expect(done).toMatchObject({ state: 'done', modelsDone: 2, modelsTotal: 2, message: '2 model(s) not fitted: see each one\'s reason.' });
    expect(done.elapsedMs).toBeGreaterThanOrEqual(0);
    // Ten peaks: two contributors explain them, one needs drop-ins.
    expect(done.models.filter((m) => m.best).map((m) => m.contributors)).toEqual([2]);
    for (const m of done.models.slice(0, 2)) {
      expect(m.state).toBe('fitted');
      expect(m.aic).toBeCloseTo(2 * m.parameters - 2 * m.logLikelihoodHd!, 9);
      expect(m.bic).toBeCloseTo(m.parameters * Math.log(10) - 2 * m.logLikelihoodHd!, 9);
    }
    expect(done.models[1]!.fittedHd!.mx).toHaveLength(2);
    expect(done.models[1]!.fittedHp!.mx).toHaveLength(2);

    // The same search inline (POST continuous-lr) gives the same figures, bit for bit.
    const inline = await t.app.inject({ method: 'POST', url: '/api/continuous-lr', headers: headers('analyst'), payload: { ...CASE, contributors: 1, contributorSearch: { from: 1, to: 2 } } });
    expect(inline.statusCode, inline.body).toBe(200);
    const search = (inline.json() as ContinuousLrResult).contributorSearch!;
    expect(done.models.slice(0, 2).map(({ logLikelihoodHp, logLikelihoodHd, aic, bic, log10Lr, best, fittedHd }) => ({ logLikelihoodHp, logLikelihoodHd, aic, bic, log10Lr, best, fittedHd }))).toEqual(
      search.map(({ logLikelihoodHp, logLikelihoodHd, aic, bic, log10Lr, best, fittedHd }) => ({ logLikelihoodHp, logLikelihoodHd, aic, bic, log10Lr, best, fittedHd })),
    );

    // Only its starter reads or cancels it; a user without Analyses Read is refused.
    expect((await read('other', job.id)).statusCode).toBe(404);
    expect((await cancel('other', job.id)).statusCode).toBe(404);
    expect((await read('clerk', job.id)).statusCode).toBe(403);
    expect((await cancel('analyst', job.id)).statusCode).toBe(409);
  });

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
