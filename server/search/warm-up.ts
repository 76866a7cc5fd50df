import { threadId } from 'node:worker_threads';
import { SEED_ANALYSIS_GROUPS } from '../genetics/seed-analyses';
import type { IndexSet } from '../matching/index-set';
import type { ProfileIndex } from '../matching/profile-index';
import { markerFrequencies, populationFrequencies } from '../matching/search-input-shapes';
import type { MatchAnalysis, MatchPopulation } from '../matching/types';
import { ROUND_BUDGET, sent, warmUpRounds, type RoundBudget, type RunTask } from './warm-up-rounds';

/** The seed analyses a warm-up runs: a same-source one (vetoes, count kernel) and a kinship one (category pass). */
const WARM_ANALYSES = ['Identity', 'Full siblings'];

const seeded = (name: string): MatchAnalysis => {
  const a = SEED_ANALYSIS_GROUPS.flatMap((g) => g.analyses).find((s) => s.name === name)!;
  return { id: `warm-up ${name}`, kind: a.kind as MatchAnalysis['kind'], profileKind: a.profileKind, roles: a.roles, threshold: a.threshold, formulae: a.formulae, constants: Object.fromEntries(a.constants.map((c) => [c.name, c.value])) };
};

/**
 * One keyboard search and its chance figures over each autosomal index, then rounds of the other searches over slices
 * of the largest (warm-up-rounds.ts), answers thrown away, so a search thread has compiled its scans, kernels,
 * convolutions and per-search code before a user waits on it (issue 29: a fresh thread's first search took up to 1.5 s
 * at 1M against 0.2 s after). The query is the largest index's first profile; the population gives every allele of its
 * columns the same frequency. Nothing is kept but what the thread compiled (and the table memo's entries).
 */
export function warmUp(indexes: IndexSet, run: RunTask, sliceOf: (part: number, of: number) => IndexSet = () => indexes, budget: RoundBudget = ROUND_BUDGET): { threadId: number; searched: number; rounds: number } {
  const index = indexes.indexes('Autosomal').reduce<ProfileIndex | null>((largest, i) => (i.size > (largest?.size ?? 0) ? i : largest), null);
  if (!index) return { threadId, searched: 0, rounds: 0 };
  const query = index.genotypesOf(index.idAt(0))!;
  const markers = new Map(
    index.markerColumns().map((c) => {
      const alleles = c.alleles.slice(1);
      return [c.name, markerFrequencies(new Map(alleles.map((a) => [a, 1 / alleles.length])), null)] as const;
    }),
  );
  const population: MatchPopulation = { id: 'warm-up', kind: 'Autosomal', frequencies: populationFrequencies('warm-up', 0.001, markers), haplotypes: [] };
  const analyses = WARM_ANALYSES.map(seeded);
  const options = { stringency: 'moderate' as const, minMarkers: 10, maxMismatches: 0 };
  const send = sent(run);
  const { searchedProfiles } = send({ task: 'keyboard', input: { kind: 'Autosomal', query, options, analyses, populations: [population], organizations: 'all', limit: 10 } }, indexes, indexes) as { searchedProfiles: number };
  send({ task: 'keyboard-chance', input: { kind: 'Autosomal', query, stringency: options.stringency, options, populations: [population], analyses } }, indexes, indexes);
  const rounds = warmUpRounds(indexes, run, sliceOf, { index, population, identity: analyses[0]!, kinship: analyses[1]! }, budget);
  return { threadId, searched: searchedProfiles, rounds };
}

/** Longest a warm-up waits for the other threads' (a thread that never starts must not hold this one for ever). */
const MEET_MS = 30_000;

/**
 * warmUp once every one of `threads` warm-up tasks has reached a thread: each waits at `arrived` for the others, so no
 * thread takes two and every thread warms up (a pool hands tasks to whichever thread is free first).
 */
export function meetThenWarmUp(indexes: IndexSet, run: RunTask, arrived: Int32Array, threads: number, sliceOf?: (part: number, of: number) => IndexSet): ReturnType<typeof warmUp> {
  Atomics.add(arrived, 0, 1);
  Atomics.notify(arrived, 0);
  const deadline = Date.now() + MEET_MS;
  for (let seen = Atomics.load(arrived, 0); seen < threads && Date.now() < deadline; seen = Atomics.load(arrived, 0)) Atomics.wait(arrived, 0, seen, deadline - Date.now());
  return warmUp(indexes, run, sliceOf);
}
