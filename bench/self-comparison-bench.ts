// Database self-comparison at scale (issue 15): every pair of N approved profiles of one chemistry
// compared for duplicates and near-duplicates (≤ 2 differences, ≥ 10 equal markers), timed.
// Anchor: DNAtools dbCompare (C++) needs 287 s for 50,000 profiles on one thread on this machine.
// Profiles: 20 CODIS core markers drawn from the FBI 2015 Caucasian frequencies, 1% of them entered
// twice (0.5% identical, 0.5% with one marker changed), so the report is not empty.
// Run alone: `npx tsx bench/self-comparison-bench.ts [sizes…]` (default 50000 1000000).
import { MessageChannel } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { closeWorkerPools, workerPool } from '../server/jobs/worker-pool';
import { yieldToEventLoop } from '../server/jobs/yield';
import { IndexSet } from '../server/matching/index-set';
import type { ProfileIndex } from '../server/matching/profile-index';
import { columnsOf, compareSelf, type SelfComparisonResult } from '../server/matching/self-comparison';
import { packColumns } from '../server/matching/self-comparison-worker';
import { fbi2015Population, profileGenerator, seededRandom } from './synthetic-profiles';

export interface SelfComparisonBenchRow {
  profiles: number;
  /** Wall time of the comparison (ms), the index already built. */
  ms: number;
  pairs: number;
  duplicates: number;
  pairsVerified: number;
  /** Planted pairs (entered twice), all of which must be found. */
  planted: number;
  /** As the server's job runs it: the longest the main thread is held while it takes the snapshot (ms)… */
  snapshotMs: number;
  /** …and the whole job through the worker thread (ms), snapshot included. */
  workerMs: number;
}

const WORKER_FILE = '../server/matching/self-comparison-worker.ts';

/** The job's path (server/search/self-comparison-jobs.ts): snapshot the columns, move them to a worker, compare there. */
async function viaWorker(index: ProfileIndex, mask: Uint8Array): Promise<{ snapshotMs: number; workerMs: number; pairs: number }> {
  // The longest stretch the main thread is held while the job takes its snapshot (between yields).
  let snapshotMs = 0;
  let slice = performance.now();
  const t0 = slice;
  const pause = async () => {
    snapshotMs = Math.max(snapshotMs, performance.now() - slice);
    await yieldToEventLoop();
    slice = performance.now();
  };
  const columns = columnsOf(index, mask);
  const bytes = await packColumns(columns.lo, columns.hi, columns.include!, columns.size, pause);
  await pause();
  const { port1, port2 } = new MessageChannel();
  port1.on('message', () => undefined);
  const task = { names: [...columns.names], alleles: columns.alleles.map((a) => [...a]), size: columns.size, bytes, maxDifferences: 2, minEqualMarkers: 10, port: port2 };
  const moving = move({
    get [transferableSymbol]() {
      return [bytes, port2];
    },
    get [valueSymbol]() {
      return task;
    },
  });
  const result = (await workerPool(new URL(WORKER_FILE, import.meta.url)).run(moving)) as SelfComparisonResult;
  port1.close();
  return { snapshotMs, workerMs: performance.now() - t0, pairs: result.pairs.length };
}

/** Builds an index of `n` profiles and times one self-comparison over it (on this thread, then as the job runs it). */
export async function benchSelfComparison(n: number, seed = 15): Promise<SelfComparisonBenchRow> {
  const population = fbi2015Population();
  const next = profileGenerator(population, seed);
  const random = seededRandom(seed + 1);
  const set = new IndexSet();
  const index = set.index('bench', 'Autosomal');
  index.reserve(n);
  let planted = 0;
  for (let i = 0; i < n; ) {
    const g = next();
    set.upsert({ id: `p${i++}`, kind: 'Autosomal', chemistryId: 'bench', organizationId: 'org', sampleType: 'Convicted Offender', genotypes: g });
    const r = random();
    if (i < n && r < 0.01) {
      const copy = new Map(g);
      if (r < 0.005) copy.set('TH01', ['5', '10']);
      set.upsert({ id: `p${i++}`, kind: 'Autosomal', chemistryId: 'bench', organizationId: 'org', sampleType: 'Convicted Offender', genotypes: copy });
      planted++;
    }
  }
  const mask = index.groupMask((g) => g.organizationId === 'org');
  const t0 = performance.now();
  const result = compareSelf(columnsOf(index, mask));
  const ms = performance.now() - t0;
  const job = await viaWorker(index, mask);
  if (job.pairs !== result.pairs.length) throw new Error(`the worker found ${job.pairs} pairs, this thread ${result.pairs.length}`);
  return { profiles: n, ms, pairs: result.pairs.length, duplicates: result.pairs.filter((p) => p.kind === 'duplicate').length, pairsVerified: result.pairsVerified, planted, snapshotMs: job.snapshotMs, workerMs: job.workerMs };
}

/** Every size's row, printed as a table (the main benchmark calls this). */
export async function runSelfComparisonBench(sizes: readonly number[] = [50_000, 1_000_000]): Promise<SelfComparisonBenchRow[]> {
  const rows: SelfComparisonBenchRow[] = [];
  for (const n of sizes) rows.push(await benchSelfComparison(n));
  await closeWorkerPools();
  console.log('\nSelf-comparison (≤ 2 differences, ≥ 10 equal markers; DNAtools dbCompare: 287 s at 50,000)');
  console.log('| profiles | comparison | job via worker (longest main-thread step) | pairs found (duplicates) | planted | pairs verified |');
  console.log('|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(`| ${r.profiles.toLocaleString('en')} | ${(r.ms / 1000).toFixed(2)} s | ${(r.workerMs / 1000).toFixed(2)} s (${r.snapshotMs.toFixed(0)} ms) | ${r.pairs} (${r.duplicates}) | ${r.planted} | ${r.pairsVerified.toLocaleString('en')} |`);
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
  await runSelfComparisonBench(sizes.length > 0 ? sizes : undefined);
}
