import { Piscina } from 'piscina';

// ARCHITECTURE.md "Heavy work off the request thread": parsing uploads and other CPU-bound work runs in
// worker threads, so no request waits behind it. Piscina keeps a small bounded pool (a laboratory's
// imports queue rather than each taking a core and its memory) and cancels a task through an AbortSignal.

/** Worker threads at most: imports are rare and memory-hungry, so two at a time, the rest queue. */
const MAX_THREADS = 2;
/** An idle worker (and the memory of the file it parsed) goes after this long. */
const IDLE_MS = 10_000;

/**
 * The pool's workers load TypeScript through tsx, as the server does (`node --import tsx`); under
 * Vitest the main thread is transformed by Vite, so the flag is added when the process lacks it.
 */
function workerExecArgv(): string[] {
  const args = [...process.execArgv];
  const hasTsx = args.some((a, i) => (a === 'tsx' && args[i - 1] === '--import') || a === '--import=tsx');
  return hasTsx ? args : [...args, '--import', 'tsx'];
}

const pools = new Map<string, Piscina>();

// Plain JavaScript, named in a constant: Node 20 does not apply tsx's loader to a worker's own entry file, and Vite rewrites
// `new URL('./x', import.meta.url)` written inline into an asset inside the component tests.
const ESM_ENTRY = './esm-worker-entry.mjs';

/**
 * The pool running the default export of `workerFile`, a file URL. Keep the name in a constant
 * (`const FILE = './x-worker.ts'; new URL(FILE, import.meta.url)`): Vite rewrites the inline form into an
 * asset URL when the server runs inside the component tests.
 */
export function workerPool(workerFile: URL, { maxThreads = MAX_THREADS, minThreads = 0, idleTimeout = IDLE_MS }: { maxThreads?: number; minThreads?: number; idleTimeout?: number } = {}): Piscina {
  const key = `${workerFile.href}#${maxThreads}`;
  let pool = pools.get(key);
  if (!pool) {
    // Through the ES-module entry: the pool's module then loads as the ES module it is, not as CommonJS (esm-worker-entry.mjs).
    pool = new Piscina({ filename: new URL(ESM_ENTRY, import.meta.url).href, workerData: { locusWorkerModule: workerFile.href }, maxThreads, minThreads, idleTimeout, execArgv: workerExecArgv() });
    pools.set(key, pool);
  }
  return pool;
}

/** Stops every pool's workers (server shutdown, end of a test file). */
export async function closeWorkerPools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((p) => p.destroy()));
}
