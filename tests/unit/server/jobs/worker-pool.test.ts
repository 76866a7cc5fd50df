import { afterAll, describe, expect, it } from 'vitest';
import { closeWorkerPools, workerPool } from '../../../../server/jobs/worker-pool';

const MODULE_KIND_WORKER = './fixtures/module-kind-worker.ts';

// Issue 29: Piscina required a TypeScript worker module, which tsx then loaded as CommonJS, transpiled; the index scans ran
// about twice as slow on the pool's threads as anywhere else (1.10 against 0.62 ms an identity search over 1M).
describe('worker pools', () => {
  afterAll(() => closeWorkerPools());

  it("load the pool's module as the ES module it is, on every thread", async () => {
    const pool = workerPool(new URL(MODULE_KIND_WORKER, import.meta.url), { maxThreads: 2, minThreads: 2 });
    expect(await Promise.all([pool.run(null), pool.run(null), pool.run(null)])).toEqual(['ES module', 'ES module', 'ES module']);
  });
});
