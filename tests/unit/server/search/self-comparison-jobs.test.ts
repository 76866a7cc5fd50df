/**
 * The self-comparison job (issue 15) over an index large enough that it runs for a while in its worker
 * thread: cancel stops it with nothing listed, a finished run lists only pairs the database confirms
 * (both profiles approved, in the organization), and the matcher loading answers 503 before anything starts.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../../server/clock';
import type { Database } from '../../../../server/db/database';
import { HttpError } from '../../../../server/errors';
import { closeWorkerPools } from '../../../../server/jobs/worker-pool';
import { IndexSet } from '../../../../server/matching/index-set';
import { MatchingService } from '../../../../server/matching/matching-service';
import { SelfComparisonJobs } from '../../../../server/search/self-comparison-jobs';
import { freshPglite } from '../../../helpers/database';

const ORG = randomUUID();
const CHEMISTRY = { id: randomUUID(), name: 'GlobalFiler', kind: 'Autosomal' as const };
const MARKERS = ['CSF1PO', 'D3S1358', 'D5S818', 'D7S820', 'D8S1179', 'D13S317', 'D16S539', 'D18S51', 'D21S11', 'FGA', 'TH01', 'TPOX', 'vWA', 'D1S1656', 'D2S441', 'D2S1338', 'D10S1248', 'D12S391', 'D19S433', 'D22S1045'];
let database: Database;
let service: MatchingService;

beforeAll(async () => {
  database = await freshPglite();
  const set = new IndexSet();
  let a = 15;
  const random = () => ((a = (Math.imul(a, 1103515245) + 12345) >>> 0) / 4294967296);
  for (let i = 0; i < 200_000; i++) {
    const genotypes = new Map(MARKERS.map((m) => [m, [String(8 + Math.floor(random() * 12)), String(20 + Math.floor(random() * 12))]]));
    set.upsert({ id: randomUUID(), kind: 'Autosomal', chemistryId: CHEMISTRY.id, organizationId: ORG, sampleType: 'Convicted Offender', genotypes });
    // Every thousandth profile entered twice: pairs the comparison finds, but the database does not hold.
    if (i % 1000 === 0) set.upsert({ id: randomUUID(), kind: 'Autosomal', chemistryId: CHEMISTRY.id, organizationId: ORG, sampleType: 'Convicted Offender', genotypes });
  }
  service = new MatchingService(set);
}, 120_000);
afterAll(async () => {
  await closeWorkerPools();
  await database.close();
});

const jobsWith = (matcher: () => MatchingService) => new SelfComparisonJobs({ db: database.db, clock: systemClock, matcher, onError: () => undefined });
const input = { scope: ORG, chemistry: CHEMISTRY, maxDifferences: 2, minEqualMarkers: 10, actor: { id: randomUUID(), name: 'Ada Analyst' } };

describe('self-comparison jobs', () => {
  it('a cancel stops the worker: the job ends cancelled with no pairs', async () => {
    const jobs = jobsWith(() => service);
    const started = await jobs.start(input);
    expect(started.state).toBe('running');
    expect(jobs.cancel(ORG).state).toBe('running');
    await jobs.idle();
    expect(jobs.current(ORG)).toMatchObject({ state: 'cancelled', phase: 'finished' });
    expect(jobs.pairs(ORG, { page: 0, pageSize: 50, kind: 'all' })).toEqual({ items: [], count: 0 });
  });

  it('lists no pair whose profiles the database does not confirm as approved in the organization', async () => {
    const jobs = jobsWith(() => service);
    await jobs.start(input);
    await expect(jobs.start(input)).rejects.toThrow('already running');
    await jobs.idle();
    const job = jobs.current(ORG)!;
    // The index holds 200 planted duplicate pairs; none is listed, for the database holds none of these profiles.
    expect(job).toMatchObject({ state: 'done', profilesCompared: 200_200, pairsFound: 0, duplicateCount: 0 });
    expect(job.pairsVerified).toBeGreaterThanOrEqual(0);
    expect(job.elapsedMs).toBeGreaterThan(0);
  });

  it('refuses to start while the matcher loads (503), leaving no job behind', async () => {
    const jobs = jobsWith(() => {
      throw new HttpError(503, 'The matching index is still loading');
    });
    await expect(jobs.start(input)).rejects.toThrow('still loading');
    expect(jobs.current(ORG)).toBeUndefined();
  });
});
