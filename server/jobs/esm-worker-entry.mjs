// @ts-check
import { workerData } from 'node:worker_threads';

// Every worker pool's entry (worker-pool.ts): it imports the pool's module as an ES module. Piscina tries `require` first,
// and under tsx a TypeScript file given to `require` loads as CommonJS, transpiled: the index scans ran about twice as
// slow on the pool's threads as on any other thread (an identity search over 1M: 1.10 ms a search on the pool against
// 0.52 in the process, 0.62 through this entry; issue 29). A .mjs file cannot be required, so Piscina imports this one,
// and this one imports the module the pool names.

/** @type {{ locusWorkerModule: string }} */
const { locusWorkerModule } = workerData;

// Node 20 does not run `--import` hooks in a worker: tsx's ES-module loader is registered here when the thread lacks it.
// A small module is tried first, since a failed import stays failed for its URL.
try {
  await import('./typescript-probe.ts');
} catch (err) {
  if (/** @type {{ code?: string }} */ (err).code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw err;
  (await import('tsx/esm/api')).register();
}

export default (await import(locusWorkerModule)).default;
