// The search workers' table of `npm run bench` (issue 29 "Using every core").
import type { Genotype } from '../server/genetics/types';
import { closeWorkerPools } from '../server/jobs/worker-pool';
import type { AnalysisMatch } from '../server/matching/analysis-scan';
import type { IndexSet } from '../server/matching/index-set';
import type { MatchRule, RuleMatch } from '../server/matching/rule-match';
import { rulePopulation } from '../server/matching/search-input-shapes';
import type { IdentityCandidate, MatchAnalysis, MatchProfile } from '../server/matching/types';
import { SearchPool } from '../server/search/search-pool';
import { groupSize } from '../server/search/search-queue';
import { toWireAnalysis, toWireRule } from '../server/search/search-wire';
import { ms, percentile, printTable, time, timeAsync } from './bench-table';
import { CHEMISTRY, fullSiblings, identityAnalysis, matchPopulation, population } from './engine-fixtures';
import { floorAtATime } from './floor-threads';
import { mixtureRule, stainOf } from './mixture-table';
import type { SimdFloor } from './simd-floor';
import { siblingOf } from './synthetic-profiles';
import { workersAtOwnPriority } from './worker-priority';

/** One thread count's p50s (identity, kinship FS, mixture search; ms) and whether every answer was the 1-thread one. */
export interface ThreadMeasure {
  threads: number;
  medians: number[];
  same: boolean;
  /** Searches at once, each whole on one thread, as the approval queue runs them: wall time per search (ms) by kind, median of the timed rounds. */
  throughput: number[];
  /**
   * The process's CPU time per search of those (ms, every thread: the searching workers, the request thread and V8's
   * helpers compiling and collecting for them), which a loaded machine does not inflate as it does the wall time.
   */
  throughputCpu: number[];
  /** Speed-up against 1 thread by kind: the median of the ratios of searches (split) or rounds (whole) timed side by side. */
  splitSpeedUp: number[];
  wholeSpeedUp: number[];
}

/**
 * Both thread counts' figures, and the SIMD floor's passes over one copy (the memory's own limits): on one thread, two at
 * a time, and each split in halves over two threads (ms a pass; speed-ups against one thread, medians of pairs).
 */
export interface ThreadTable {
  measured: [ThreadMeasure, ThreadMeasure];
  floor: { one: number; two: number; speedUp: number; split: number; splitSpeedUp: number };
}

/**
 * How many searches of each kind the table runs: multiples of the thread counts (1, 2), so that two threads running
 * searches whole end together. With an odd count the last search of a kind ran alone on one thread while the other
 * waited (5 mixture searches two at a time can give at most 5/3 = 1.67× one at a time, 15 kinship scans 15/8 = 1.88×).
 */
export const THREAD_SEARCHES = { identity: 40, kinship: 16, mixture: 12 } as const;

/**
 * Timed rounds, each one thread's then two threads' (issue 29): the host's speed drifts within a run, a pair's two rounds
 * share it. At least TIMED_MIN, then up to TIMED_ROUNDS while the rounds have taken under TIMED_MS (a round of 12 mixture
 * searches two at a time lasts 35 ms at 1M, so one compile or one stall of the host weighs on a round, not on a median).
 */
const TIMED_MIN = 5;
// 31, not 15: a round of 40 identity approvals lasts 60-80 ms at 1M, and 15 of them read 1.38x and 1.75x on the same code.
const TIMED_ROUNDS = 31;
const TIMED_MS = 30_000;
/**
 * Untimed rounds of whole searches per thread, at most, and the longest they run on 1 thread (ms): V8 compiles a search's
 * per-search planning (its largest functions, 20–35 ms each on a helper thread) only after hundreds of searches, and
 * while it does, a compile takes the core two searches at a time need (0.2 s of compiling in the rounds' first five,
 * 10 ms in the fifth five, at 1M). A server's threads run past that within their first hours.
 */
const WARM_ROUNDS = 30;
const WARM_MS = 10_000;
/** Floor passes a measure makes per thread: about this long (ms) on one thread. */
const FLOOR_MEASURE_MS = 60;

// Issue 29 "Using every core": one search split over the search workers by slices of the index (the server's pool,
// over the index's shared memory), 1 and 2 threads, against the SIMD floor; every answer checked equal to the 1-thread one.
export async function threadRows(n: number, set: IndexSet, planted: readonly ReadonlyMap<string, Genotype>[], floor: SimdFloor): Promise<string[][]> {
  const { measured, floor: passes } = await measureThreads(set, planted, floor);
  return [
    ...measured.map(({ threads, medians, splitSpeedUp, same }) => [
      n.toLocaleString('en'),
      `${threads}, one search split`,
      ...medians.map((m, k) => `${ms(m)} (${splitSpeedUp[k]!.toFixed(2)}×; ${((m * threads) / passes.one).toFixed(2)}× floor per thread)`),
      floorCell(passes, threads, true),
      same ? 'yes' : 'NO',
    ]),
    ...measured.map(({ threads, throughput, throughputCpu, wholeSpeedUp, same }) => [
      n.toLocaleString('en'),
      `${threads}, ${threads === 1 ? 'one approval' : `${threads} approvals`} at a time`,
      ...throughput.map((m, k) => `${ms(m)} a search (${wholeSpeedUp[k]!.toFixed(2)}×; CPU ${ms(throughputCpu[k]!)})`),
      floorCell(passes, threads, false),
      same ? 'yes' : 'NO',
    ]),
  ];
}

/** The floor's cell of a row of `threads` threads, split or at a time: its time a pass and speed-up against one thread. */
export const floorCell = (passes: ThreadTable['floor'], threads: number, split: boolean) =>
  threads === 1 ? `${ms(passes.one)} a pass (1.00×)` : split ? `${ms(passes.split)} a pass split (${passes.splitSpeedUp.toFixed(2)}×)` : `${ms(passes.two)} a pass (${passes.speedUp.toFixed(2)}×)`;

/**
 * The wall time and the process's CPU time per search of `items` run `threads` at a time, each whole on one thread, as the
 * approval queue runs them (issue 29 "the approval queue runs several searches at once up to the pool's size"): `threads`
 * loops, each taking its share of the searches still waiting (search-queue.ts `groupSize`) and sending them to a thread as
 * one task; answers kept in the items' order.
 */
async function atATime<I>(threads: number, items: readonly I[], search: (group: I[]) => Promise<unknown[]>, answers: unknown[]): Promise<{ wall: number; cpu: number }> {
  let next = 0;
  let searching = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: threads }, async () => {
      while (next < items.length) {
        const from = next;
        next += groupSize(items.length - from, threads - searching);
        searching++;
        const found = await search(items.slice(from, next));
        searching--;
        found.forEach((f, k) => (answers[from + k] = f));
      }
    }),
  );
  const wall = (performance.now() - t0) / items.length;
  const { user, system } = process.cpuUsage(c0);
  return { wall, cpu: (user + system) / 1000 / items.length };
}

/** An approval rule over the bench's index (its offenders), weighed in the FBI 2015 Caucasian population. */
const benchRule = (analysis: MatchAnalysis, stringency: MatchRule['stringency'], minMarkers: number): MatchRule => ({
  id: analysis.id,
  name: analysis.id,
  analysis,
  stringency,
  minMarkers,
  maxMismatches: 0,
  threshold: { kind: 'likelihood-ratio', value: null },
  searchedSampleTypes: ['Convicted Offender'],
  populations: [rulePopulation('Caucasian', 'Caucasian', 'Autosomal', false, matchPopulation.frequencies, [])],
});
/** The split rows' identity scan (moderate, 10 markers) and full-sibling scan (6 markers) as the rules an approval runs. */
const identityRule = benchRule(identityAnalysis, 'moderate', 10);
const kinshipRule = benchRule(fullSiblings, null, 6);

const median = (xs: readonly number[]) => percentile([...xs], 0.5);

type Answers = { identity: unknown[]; kinship: unknown[]; mixture: unknown[] };
const noAnswers = (): Answers => ({ identity: [], kinship: [], mixture: [] });

/**
 * The thread table's searches on 1 and 2 threads, timed side by side (issue 32's national table reads the same figures
 * at 25M): both pools warm, each of their threads given as many untimed searches, then each timed search or round run on
 * one thread and at once on two, so a drift of the host's speed weighs on both; the speed-ups are the medians of those pairs.
 */
export async function measureThreads(set: IndexSet, planted: readonly ReadonlyMap<string, Genotype>[], floor: SimdFloor): Promise<ThreadTable> {
  const options = { stringency: 'moderate' as const, minMarkers: 10, maxMismatches: 0 };
  const perIndex = <T>(parts: T[][][]) => parts[0]!.map((_, i) => parts.flatMap((p) => p[i]!));
  const smallest = (m: RuleMatch) => Math.min(...m.populations.map((p) => p.combinedIndex ?? 0));
  const byLr = (parts: RuleMatch[][]) => parts.flat().sort((a, b) => smallest(b) - smallest(a));
  const kinshipOf = (query: ReadonlyMap<string, Genotype>, i: number) => ({ analysis: toWireAnalysis(fullSiblings), query: siblingOf(query, population, i), queryRole: 0 as const, population: matchPopulation, minMarkers: 6 });
  const queries = planted.slice(0, THREAD_SEARCHES.identity);
  const siblings = planted.slice(0, THREAD_SEARCHES.kinship);
  const stains = Array.from({ length: THREAD_SEARCHES.mixture }, (_, i) => ({ id: `STAIN${i}`, kind: 'Autosomal' as const, chemistryId: CHEMISTRY, organizationId: 'org', sampleType: 'Forensic Mixture', genotypes: stainOf(planted.slice(3 * i, 3 * i + 3)) }));
  const counts: readonly number[] = [1, 2];
  const pools = counts.map((threads) => new SearchPool(threads));
  // The server's warm-up first (pool.warm, as search-runtime.ts runs it once the index is loaded): the rows measure what
  // a started server's threads live with, then the bench's own untimed rounds below.
  for (const pool of pools) await pool.warm(set);
  // A split scan or mixture rule makes its tables once, in shares of the query's markers on every thread, sent to the
  // slices; a mixture rule's slices each do the rest of its per-search work (issue 29).
  const split = (t: number) => {
    const run = <T, R>(task: Parameters<SearchPool['run']>[2], merge: (parts: T[]) => R) => pools[t]!.runParts<T, R>(set, 'Autosomal', task, t + 1, merge);
    return {
      identity: (query: ReadonlyMap<string, Genotype>) => run({ task: 'identity', kind: 'Autosomal', query, options }, perIndex<IdentityCandidate>),
      kinship: (query: ReadonlyMap<string, Genotype>, seed: number) => run({ task: 'scan', kind: 'Autosomal', request: kinshipOf(query, seed) }, perIndex<AnalysisMatch>),
      mixture: (stain: (typeof stains)[number]) => run({ task: 'mixture-rule', rule: toWireRule(mixtureRule), profile: stain }, byLr),
    };
  };
  const splits = [split(0), split(1)];
  // Every kind untimed on each pool, five times here and once in every untimed round below: the workers start, and each
  // thread's compiler reaches the optimized code a server's long-lived workers run (a split's tables made in shares and its
  // slices run other code than a whole search: with five split runs only, a split kinship scan read 1.05× at 1M, 1.5× warm).
  const splitUntimed = async (t: number, round: number) => {
    const s = splits[t]!;
    await s.identity(planted[round % planted.length]!);
    // Other siblings than the timed ones: a thread keeps the tables it made (table-memo.ts), and timed queries must not be made ahead.
    await s.kinship(planted[planted.length - 1 - (round % planted.length)]!, 500 + round);
    await s.mixture(stains[round % stains.length]!);
  };
  for (let t = 0; t < 2; t++) for (let round = 0; round < 5; round++) await splitUntimed(t, round);
  // The approval queue's task: each search's profile with its rule set (one rule here), its matches back in order.
  const approvals = (t: number, rule: MatchRule, profiles: MatchProfile[]) =>
    pools[t]!.run<RuleMatch[][]>(set, 'Autosomal', { task: 'rules', searches: profiles.map((profile) => ({ profile, rules: 0 })), rules: [[toWireRule(rule)]] });
  const profileOf = (id: string, sampleType: string, genotypes: ReadonlyMap<string, Genotype>): MatchProfile => ({ id, kind: 'Autosomal', chemistryId: CHEMISTRY, organizationId: 'org', sampleType, genotypes });
  // One kind's searches each whole on one thread, as many at a time as the pool has threads, grouped as the queue groups them.
  const wholeKind = (t: number, kind: number, kinshipSeed: number, answers: Answers) => {
    const threads = t + 1;
    if (kind === 0) return atATime(threads, [...queries.entries()], (group) => approvals(t, identityRule, group.map(([i, query]) => profileOf(`QUERY${i}`, 'Forensic Unknown', query))), answers.identity);
    if (kind === 1) return atATime(threads, [...siblings.entries()], (group) => approvals(t, kinshipRule, group.map(([i, query]) => profileOf(`SIBLING${i}`, 'Family Reference', siblingOf(query, population, kinshipSeed + i)))), answers.kinship);
    return atATime(threads, stains, (group) => approvals(t, mixtureRule, group), answers.mixture);
  };
  const untimedRound = async (t: number, round: number, kinshipSeed: number) => {
    await splitUntimed(t, 5 + round);
    for (let kind = 0; kind < 3; kind++) await wholeKind(t, kind, kinshipSeed, noAnswers());
  };
  // The whole searches untimed, the same number on every thread of either pool (issue 29): the two-thread pool runs twice
  // the rounds, or each of its threads would come to the timed rounds with half the searches compiled (WARM_ROUNDS).
  const warmStart = performance.now();
  let warmRounds = 0;
  for (; warmRounds < WARM_ROUNDS && performance.now() - warmStart < WARM_MS; warmRounds++) await untimedRound(0, warmRounds, 600 + 20 * warmRounds);
  for (let round = 0; round < 2 * warmRounds; round++) await untimedRound(1, round, 10_000 + 20 * round);
  // The floor's threads started and compiled, one untimed measure each.
  const floorPasses = Math.max(2, Math.round(FLOOR_MEASURE_MS / median(Array.from({ length: 3 }, () => time(() => floor.pass())))));
  for (const threads of counts) await floorAtATime(floor, threads, 1);
  workersAtOwnPriority();

  // The split searches, each on one thread and then split over two, side by side.
  const splitTimes = [
    [[], [], []],
    [[], [], []],
  ] as number[][][];
  const splitAnswers = [noAnswers(), noAnswers()];
  const timeSplit = async (kind: number, search: (s: (typeof splits)[number]) => Promise<unknown>, into: (a: Answers) => unknown[]) => {
    for (let t = 0; t < 2; t++) splitTimes[t]![kind]!.push(await timeAsync(async () => into(splitAnswers[t]!).push(await search(splits[t]!))));
  };
  for (const query of queries) await timeSplit(0, (s) => s.identity(query), (a) => a.identity);
  for (const [i, query] of siblings.entries()) await timeSplit(1, (s) => s.kinship(query, i), (a) => a.kinship);
  for (const stain of stains) await timeSplit(2, (s) => s.mixture(stain), (a) => a.mixture);
  // The same searches again, each whole on one thread, as many at a time as there are threads, in rounds: each kind's
  // round on one thread, then on two; the kinship queries other siblings than the split's (issue 29): on one thread the
  // split had made every table of its queries on the thread the whole searches then ran on (table-memo.ts).
  const rounds = counts.map(() => [[], [], []] as { wall: number; cpu: number }[][]);
  const wholeAnswers = [noAnswers(), noAnswers()];
  // The floor on one thread, two at a time, and split in halves over two.
  const floors: number[][] = [[], [], []];
  const timedStart = performance.now();
  for (let round = 0; round < TIMED_ROUNDS && (round < TIMED_MIN || performance.now() - timedStart < TIMED_MS); round++) {
    for (let kind = 0; kind < 3; kind++) {
      for (let t = 0; t < 2; t++) {
        // The first round's answers are compared; every round asks other siblings (no table made ahead).
        const answers = round === 0 ? wholeAnswers[t]! : noAnswers();
        rounds[t]![kind]!.push(await wholeKind(t, kind, 2_000 + 20 * round, answers));
      }
    }
    floors[0]!.push(await floorAtATime(floor, 1, floorPasses));
    floors[1]!.push(await floorAtATime(floor, 2, floorPasses));
    floors[2]!.push(await floorAtATime(floor, 2, floorPasses, true));
  }
  await closeWorkerPools();
  const same = JSON.stringify(splitAnswers[0]) === JSON.stringify(splitAnswers[1]) && JSON.stringify(wholeAnswers[0]) === JSON.stringify(wholeAnswers[1]);
  const paired = (one: readonly number[], two: readonly number[]) => median(one.map((x, i) => x / two[i]!));
  const measured = counts.map((threads, t) => ({
    threads,
    medians: splitTimes[t]!.map(median),
    same,
    throughput: rounds[t]!.map((r) => median(r.map((x) => x.wall))),
    throughputCpu: rounds[t]!.map((r) => median(r.map((x) => x.cpu))),
    splitSpeedUp: splitTimes[t]!.map((times, k) => paired(splitTimes[0]![k]!, times)),
    wholeSpeedUp: rounds[t]!.map((r, k) => paired(rounds[0]![k]!.map((x) => x.wall), r.map((x) => x.wall))),
  })) as [ThreadMeasure, ThreadMeasure];
  const [one, two, halves] = floors as [number[], number[], number[]];
  return { measured, floor: { one: median(one), two: median(two), speedUp: paired(one, two), split: median(halves), splitSpeedUp: paired(one, halves) } };
}

export function printThreadTable(rows: string[][]): void {
  printTable(
    `\nThe search workers (issue 29): one search split into as many slices of the index as threads, on the server's pool over the index's shared memory (p50; speed-up against 1 thread, the median of each search's on one thread against split over two, timed one after the other; time × threads against the SIMD floor's pass on one of the pool's threads, measured beside them); then the same searches as the approval queue runs them: as its rules (an identity rule, moderate, 10 markers, with its chance figures; a full-sibling rule, 6 markers; the mixture rule), each whole on one thread, as many at a time as threads, each thread's share of a round sent as one task (the queue's groups, search-queue.ts groupSize) (wall time per search, median of ${TIMED_MIN} to ${TIMED_ROUNDS} rounds, as many as ${TIMED_MS / 1000} s allow; speed-up: the median of the rounds' ratios, each kind's round on one thread timed just before its round on two); beside them the SIMD floor's passes over one copy of the columns on one thread, two at a time, and each split in halves over two (the memory's own limits for two scans at once and for a split one). ${THREAD_SEARCHES.identity} identity (moderate), ${THREAD_SEARCHES.kinship} full-sibling kinship scans, ${THREAD_SEARCHES.mixture} 3-person mixture searches (each count even, so two threads end together), after up to ${WARM_ROUNDS} untimed rounds of the searches split and whole (${WARM_MS / 1000} s at most on one thread; as many per thread on two); the whole searches' kinship queries other siblings than the split's\n`,
    ['N', 'threads', 'identity', 'kinship FS', 'mixture search', 'SIMD floor pass', 'same answers as 1 thread'],
    rows,
  );
}
