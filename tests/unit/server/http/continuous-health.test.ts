/**
 * Issue 31 and ARCHITECTURE.md "Heavy work off the request thread": while a continuous report is weighed and written
 * (POST continuous-lr/report) and while a number-of-contributors search fits its models, GET /api/health is answered —
 * before the long call has finished, not after it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContributorSearchJob } from '../../../../core/schemas/continuous';
import { closeWorkerPools, workerPool } from '../../../../server/jobs/worker-pool';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';

let t: TestApp;
let token = '';

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const org = (await createOrganization(db, 'Oslo Lab')).id;
  const analyst = await createAccessGroup(db, { grants: { Analyses: ['Read'], Populations: ['Read'], Profiles: ['Read'] } });
  token = t.verifier.issue((await createUser(db, { accessGroupId: analyst.id, organizationIds: [org] })).id);
}, 60_000);
afterAll(async () => {
  await closeWorkerPools();
  await t.close();
});

const headers = () => ({ authorization: `Bearer ${token}` });
const health = () => t.app.inject({ method: 'GET', url: '/api/health' });

// One marker, ten peaks of a two-person stain: 66 genotypes per unknown, 4,356 joint ones under Hd; each fit takes
// hundreds of evaluations (as tests/unit/server/http/contributor-search-job.test.ts).
const ALLELES = Array.from({ length: 20 }, (_, i) => `${i + 5}`);
const HEIGHTS = [900, 850, 400, 380, 1000, 950, 420, 390, 880, 410];
const CASE = {
  contributors: 2,
  replicates: [{ markers: [{ marker: 'D3S1358', peaks: HEIGHTS.map((height, i) => ({ allele: `${i + 8}`, height })) }] }],
  personOfInterest: { markers: [{ marker: 'D3S1358', alleles: ['8', '9'] }] },
  frequencies: { markers: [{ marker: 'D3S1358', alleles: ALLELES.map((allele) => ({ allele, frequency: 0.05 })) }] },
  normalizeFrequencies: false,
  model: { backwardStutter: true, forwardStutter: true },
  parameters: { mode: 'fit', starts: 4, seed: 3 },
};

/** Waits (between turns of the event loop, never blocking it) until `done` holds or `stop` has settled. */
async function until(done: () => boolean, stop: { settled: boolean }): Promise<void> {
  while (!done() && !stop.settled) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('GET /api/health during the continuous model’s long runs', () => {
  it('answers while a continuous report is weighed and written on its worker, before the report', async () => {
    const order: string[] = [];
    const report = { settled: false };
    const pending = t.app.inject({ method: 'POST', url: '/api/continuous-lr/report?format=pdf', headers: headers(), payload: CASE }).then((res) => {
      report.settled = true;
      order.push('report');
      return res;
    });
    // The report's worker is at work once its pool has a thread (threads start with a task); then health is asked.
    const pool = workerPool(new URL('../../../../server/jobs/continuous-report-worker.ts', import.meta.url));
    await until(() => pool.threads.length > 0, report);
    const answered = await health();
    order.push('health');
    expect(answered.statusCode, answered.body).toBe(200);
    const res = await pending;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(order).toEqual(['health', 'report']);
  });

  it('answers while a number-of-contributors search fits its models, before the search ends', async () => {
    const models = [{}, { backwardStutter: true }, { backwardStutter: true, forwardStutter: true }];
    const started = await t.app.inject({ method: 'POST', url: '/api/continuous-lr/contributor-search', headers: headers(), payload: { ...CASE, contributors: 1, model: {}, contributorSearch: { from: 1, to: 2, models } } });
    expect(started.statusCode, started.body).toBe(202);
    const job = started.json() as ContributorSearchJob;
    const answered = await health();
    expect(answered.statusCode, answered.body).toBe(200);
    // Read after health answered: the search is still fitting.
    const read = (await t.app.inject({ method: 'GET', url: `/api/continuous-lr/contributor-search/${job.id}`, headers: headers() })).json() as ContributorSearchJob;
    expect(read.state).toBe('running');
    expect(read.modelsDone).toBeLessThan(6);
    expect((await t.app.inject({ method: 'POST', url: `/api/continuous-lr/contributor-search/${job.id}/cancel`, headers: headers() })).statusCode).toBe(200);
  });
});
