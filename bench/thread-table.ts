// The search workers' table of `npm run bench` (issue 29 "Using every core").
import type { Genotype } from '../server/genetics/types';
import { closeWorkerPools } from '../server/jobs/worker-pool';
import type { AnalysisMatch } from '../server/matching/analysis-scan';
import type { IndexSet } from '../server/matching/index-set';
import type { RuleMatch } from '../server/matching/rule-match';
import type { IdentityCandidate } from '../server/matching/types';
import { SearchPool } from '../server/search/search-pool';
import { toWireAnalysis, toWireRule } from '../server/search/search-wire';
import { ms, percentile, printTable, timeAsync } from './bench-table';
import { CHEMISTRY, fullSiblings, matchPopulation, population } from './engine-fixtures';
import { mixtureRule, stainOf } from './mixture-table';
import { siblingOf } from './synthetic-profiles';
import { workersAtOwnPriority } from './worker-priority';

/** One thread count's p50s (identity, kinship FS, mixture search; ms) and whether every answer was the 1-thread one. */
export interface ThreadMeasure {
  threads: number;
  medians: number[];
  same: boolean;
  /** Searches at once, each whole on one thread, as the approval queue runs them: wall time per search (ms) by kind. */
  throughput: number[];
  /**
   * The process's CPU time per search of those (ms, every thread: the searching workers, the request thread and V8's
   * helpers compiling and collecting for them), which a loaded machine does not inflate as it does the wall time.
   */
  throughputCpu: number[];
}

/**
 * How many searches of each kind the table runs: multiples of the thread counts (1, 2), so that two threads running
 * searches whole end together. With an odd count the last search of a kind ran alone on one thread while the other
 * waited (5 mixture searches two at a time can give at most 5/3 = 1.67× one at a time, 15 kinship scans 15/8 = 1.88×).
 */
export const THREAD_SEARCHES = { identity: 40, kinship: 16, mixture: 12 } as const;

// Issue 29 "Using every core": one search split over the search workers by slices of the index (the server's pool,
// over the index's shared memory), 1 and 2 threads, against the SIMD floor; every answer checked equal to the 1-thread one.
export async function threadRows(n: number, set: IndexSet, planted: readonly ReadonlyMap<string, Genotype>[], floor: number): Promise<string[][]> {
  const measured = await measureThreads(set, planted);
  const one = measured[0]!.medians;
  const alone = measured[0]!.throughput;
  return [
    ...measured.map(({ threads, medians, same }) => [
      n.toLocaleString('en'),
      `${threads}, one search split`,
      ...medians.map((m, k) => `${ms(m)} (${(one[k]! / m).toFixed(2)}×; ${((m * threads) / floor).toFixed(2)}× floor per thread)`),
      same ? 'yes' : 'NO',
    ]),
    ...measured.map(({ threads, throughput, throughputCpu, same }) => [
      n.toLocaleString('en'),
      `${threads}, ${threads === 1 ? 'one search' : `${threads} searches`} at a time`,
      ...throughput.map((m, k) => `${ms(m)} a search (${(alone[k]! / m).toFixed(2)}×; CPU ${ms(throughputCpu[k]!)})`),
      same ? 'yes' : 'NO',
    ]),
  ];
}

/**
 * The wall time and the process's CPU time per search of `items` run `threads` at a time, each whole on one thread (the
 * approval queue's way: issue 29 "the approval queue runs several searches at once up to the pool's size"); answers kept
 * in the items' order.
 */
async function atATime<I>(threads: number, items: readonly I[], search: (item: I) => Promise<unknown>, answers: unknown[]): Promise<{ wall: number; cpu: number }> {
  let next = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: threads }, async () => {
      while (next < items.length) {
        const i = next++;
        answers[i] = await search(items[i]!);
      }
    }),
  );
  const wall = (performance.now() - t0) / items.length;
  const { user, system } = process.cpuUsage(c0);
  return { wall, cpu: (user + system) / 1000 / items.length };
}

/** The thread table's searches on 1, then 2 threads (issue 32's national table reads the same figures at 25M). */
export async function measureThreads(set: IndexSet, planted: readonly ReadonlyMap<string, Genotype>[]): Promise<ThreadMeasure[]> {
  const measured: ThreadMeasure[] = [];
  const options = { stringency: 'moderate' as const, minMarkers: 10, maxMismatches: 0 };
  const perIndex = <T>(parts: T[][][]) => parts[0]!.map((_, i) => parts.flatMap((p) => p[i]!));
  const smallest = (m: RuleMatch) => Math.min(...m.populations.map((p) => p.combinedIndex ?? 0));
  const byLr = (parts: RuleMatch[][]) => parts.flat().sort((a, b) => smallest(b) - smallest(a));
  const kinshipOf = (query: ReadonlyMap<string, Genotype>, i: number) => ({ analysis: toWireAnalysis(fullSiblings), query: siblingOf(query, population, i), queryRole: 0 as const, population: matchPopulation, minMarkers: 6 });
  const queries = planted.slice(0, THREAD_SEARCHES.identity);
  const siblings = planted.slice(0, THREAD_SEARCHES.kinship);
  const stains = Array.from({ length: THREAD_SEARCHES.mixture }, (_, i) => ({ id: `STAIN${i}`, kind: 'Autosomal' as const, chemistryId: CHEMISTRY, organizationId: 'org', sampleType: 'Forensic Mixture', genotypes: stainOf(planted.slice(3 * i, 3 * i + 3)) }));
  // The 1-thread answers of the split searches and of the whole ones (other kinship queries).
  const baseline = { split: '', whole: '' };
  for (const threads of [1, 2]) {
    const pool = new SearchPool(threads);
    // The server's warm-up first (pool.warm, as search-runtime.ts runs it once the index is loaded): the rows measure what
    // a started server's threads live with, then the bench's own untimed rounds below.
    await pool.warm(set);
    const run = <T, R>(task: Parameters<SearchPool['run']>[2], merge: (parts: T[]) => R) => pool.runParts<T, R>(set, 'Autosomal', task, threads, merge);
    // A split scan or mixture rule makes its tables once, in shares of the query's markers on every thread, sent to the
    // slices; a mixture rule's slices each do the rest of its per-search work (issue 29).
    const mixtureRun = (profile: (typeof stains)[number]) => run({ task: 'mixture-rule', rule: toWireRule(mixtureRule), profile }, byLr);
    // Every kind five times untimed: the workers start, and each thread's compiler reaches the optimized scans a server's
    // long-lived workers run (a fresh thread's first few searches take up to twice as long).
    for (let round = 0; round < 5; round++) {
      await run({ task: 'identity', kind: 'Autosomal', query: planted[round]!, options }, perIndex<IdentityCandidate>);
      // Other siblings than the timed ones: a thread keeps the tables it made (table-memo.ts), and timed queries must not be made ahead.
      await run({ task: 'scan', kind: 'Autosomal', request: kinshipOf(planted[planted.length - 1 - round]!, 500 + round) }, perIndex<AnalysisMatch>);
      await mixtureRun(stains[round % stains.length]!);
    }
    const whole = <T, R>(task: Parameters<SearchPool['run']>[2], merge: (parts: T[]) => R) => pool.runParts<T, R>(set, 'Autosomal', task, 1, merge);
    const wholeSearches = async (kinshipSeed: number, answers: { identity: unknown[]; kinship: unknown[]; mixture: unknown[] }) => [
      await atATime(threads, queries, (query) => whole({ task: 'identity', kind: 'Autosomal', query, options }, perIndex<IdentityCandidate>), answers.identity),
      await atATime(threads, [...siblings.entries()], ([i, query]) => whole({ task: 'scan', kind: 'Autosomal', request: kinshipOf(query, kinshipSeed + i) }, perIndex<AnalysisMatch>), answers.kinship),
      await atATime(threads, stains, (stain) => whole({ task: 'mixture-rule', rule: toWireRule(mixtureRule), profile: stain }, byLr), answers.mixture),
    ];
    // The whole searches too, as many at a time as threads, three rounds untimed (issue 29): a split's slices run other code
    // than a whole search (its tables made beforehand), and a thread's compiler kept recompiling the kinship search's
    // planning for dozens of searches, on V8's helper threads (5.6 ms of their CPU a kinship search two at a time in the
    // first round after 20 whole ones, 0.8 ms in the fourth): one search at a time leaves them the idle core, two take it.
    for (let round = 0; round < 3; round++) await wholeSearches(600 + 20 * round, { identity: [], kinship: [], mixture: [] });
    workersAtOwnPriority();
    const identity: number[] = [];
    const kinship: number[] = [];
    const mixture: number[] = [];
    const answers = { identity: [] as unknown[], kinship: [] as unknown[], mixture: [] as unknown[] };
    for (const query of queries) identity.push(await timeAsync(async () => answers.identity.push(await run({ task: 'identity', kind: 'Autosomal', query, options }, perIndex<IdentityCandidate>))));
    for (const [i, query] of siblings.entries()) kinship.push(await timeAsync(async () => answers.kinship.push(await run({ task: 'scan', kind: 'Autosomal', request: kinshipOf(query, i) }, perIndex<AnalysisMatch>))));
    for (const stain of stains) mixture.push(await timeAsync(async () => answers.mixture.push(await mixtureRun(stain))));
    const medians = [percentile(identity, 0.5), percentile(kinship, 0.5), percentile(mixture, 0.5)];
    // The same searches again, each whole on one thread, as many at a time as there are threads; the kinship queries other
    // siblings than the split's (issue 29): on one thread the split had made every table of its queries on the thread the
    // whole searches then ran on (table-memo.ts), on two threads half of each on either, so the rows compared memo hits.
    const together = { identity: [] as unknown[], kinship: [] as unknown[], mixture: [] as unknown[] };
    const timedWhole = await wholeSearches(2000, together);
    if (threads === 1) [baseline.split, baseline.whole] = [JSON.stringify(answers), JSON.stringify(together)];
    measured.push({ threads, medians, same: JSON.stringify(answers) === baseline.split && JSON.stringify(together) === baseline.whole, throughput: timedWhole.map((w) => w.wall), throughputCpu: timedWhole.map((w) => w.cpu) });
  }
  await closeWorkerPools();
  return measured;
}

export function printThreadTable(rows: string[][]): void {
  printTable(
    `\nThe search workers (issue 29): one search split into as many slices of the index as threads, on the server's pool over the index's shared memory (p50; speed-up against 1 thread; time × threads against the SIMD floor); then the same searches each whole on one thread, as many at a time as threads, as the approval queue runs them (wall time per search; speed-up against one at a time); ${THREAD_SEARCHES.identity} identity (moderate), ${THREAD_SEARCHES.kinship} full-sibling kinship scans, ${THREAD_SEARCHES.mixture} 3-person mixture searches (each count even, so two threads end together), after five untimed runs of each split and three rounds of the whole searches at a time; the whole searches' kinship queries other siblings than the split's\n`,
    ['N', 'threads', 'identity', 'kinship FS', 'mixture search', 'same answers as 1 thread'],
    rows,
  );
}
