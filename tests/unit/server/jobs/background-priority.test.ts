import { afterAll, describe, expect, it } from 'vitest';
import { thisThreadNice, WORKER_NICE } from '../../../../server/jobs/background-priority';
import { closeWorkerPools, workerPool } from '../../../../server/jobs/worker-pool';
import { importsOf, sourceFiles } from '../../source-imports';

const NICE_WORKER = './fixtures/thread-nice-worker.ts';
const linux = process.platform === 'linux';

// Issue 29: during a 100,000-profile import /api/health waited for a core while the parse workers held both; every
// pool worker runs below the request thread's priority so the kernel serves the request thread first.
describe('pool workers run below the request thread', () => {
  afterAll(() => closeWorkerPools());

  it.runIf(linux)('a pool worker runs at WORKER_NICE while the request thread keeps its own priority', async () => {
    const before = thisThreadNice();
    const pool = workerPool(new URL(NICE_WORKER, import.meta.url), { maxThreads: 2 });
    const answers = await Promise.all([pool.run(null), pool.run(null), pool.run(null)]);
    expect(answers).toEqual([WORKER_NICE, WORKER_NICE, WORKER_NICE]);
    expect(thisThreadNice()).toBe(before);
    expect(before).toBeLessThan(WORKER_NICE);
  });
});

describe('every pool worker lowers its thread first', () => {
  it('each server worker module imports background-priority before anything else', () => {
    const workers = sourceFiles('server').filter((file) => file.endsWith('-worker.ts'));
    expect(workers.length).toBeGreaterThanOrEqual(9);
    const first = workers.map((file) => [file, importsOf(file)[0]] as const);
    expect(first.filter(([, target]) => target !== 'server/jobs/background-priority.ts')).toEqual([]);
  });
});
