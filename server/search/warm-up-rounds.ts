import type { Genotype } from '../genetics/types';
import type { ScanRequest } from '../matching/analysis-scan';
import type { IndexSet } from '../matching/index-set';
import type { KeyboardCandidatesInput } from '../matching/keyboard-candidates';
import type { KeyboardChanceInput } from '../matching/keyboard-chance';
import type { ProfileGroup, ProfileIndex } from '../matching/profile-index';
import type { MatchRule } from '../matching/rule-match';
import { rulePopulation } from '../matching/search-input-shapes';
import type { IdentityOptions, MatchAnalysis, MatchPopulation, MatchProfile } from '../matching/types';
import { threadCpuMs } from './thread-cpu';

/** The tasks a warm-up runs, as the pool sends them (search-worker.ts's SearchRequest). */
export type WarmTask =
  | { task: 'identity'; kind: 'Autosomal'; query: ReadonlyMap<string, Genotype>; options: IdentityOptions }
  | { task: 'scan'; kind: 'Autosomal'; request: ScanRequest }
  | { task: 'mixture-rule'; rule: MatchRule; profile: MatchProfile }
  | { task: 'rules'; searches: { profile: MatchProfile; rules: number }[]; rules: MatchRule[][] }
  | { task: 'keyboard'; input: KeyboardCandidatesInput }
  | { task: 'keyboard-chance'; input: KeyboardChanceInput };

/**
 * Runs a task as a search thread runs one it was sent (search-worker.ts's runSearch): over `on`, a slice's N counted over
 * `whole`; `split`: as a slice of a search split into that many, its per-search work made first in shares (search-pool.ts's runPrepared).
 */
export type RunTask = (task: WarmTask, on: IndexSet, whole: IndexSet, split?: number) => unknown;

/**
 * `run` given a copy of `task` as a message would bring it (issue 29): a thread's searches read their inputs as the
 * structured clone made them, whose objects V8 builds with other hidden classes (and arrays with other elements kinds)
 * than the literals a warm-up writes; code optimized for the warm-up's deoptimized on the first search a user sent, and
 * compiled again on V8's helper threads.
 */
export const sent =
  (run: RunTask): RunTask =>
  (task, on, whole, split) =>
    run(structuredClone(task), on, whole, split);

/** Profiles of the slice a round searches: its scans cost little, so the rounds spend their budget on per-search code. */
const ROUND_PROFILES = 20_000;
const MAX_ROUNDS = 400;
/** Shares of a split search's per-search work in a warm-up round (a pool of two threads makes two; the code is the same for more). */
const SPLIT_SHARES = 2;
/** The rules' own code (their chance figures) every so many rounds: a round of them costs tens of milliseconds. */
const RULES_EVERY = 10;

/** How long a thread's rounds run: CPU time (ms), and wall time, so a thread starved by other processes stops sooner. */
export interface RoundBudget {
  cpuMs: number;
  wallMs: number;
  /** At most this many rounds (MAX_ROUNDS when absent). */
  rounds?: number;
}
export const ROUND_BUDGET: RoundBudget = { cpuMs: 1_500, wallMs: 10_000 };

/** What a warm-up's rounds search with: the index's largest chemistry, the warm-up's population and its identity and kinship analyses. */
export interface RoundInputs {
  index: ProfileIndex;
  population: MatchPopulation;
  identity: MatchAnalysis;
  kinship: MatchAnalysis;
}

/**
 * Rounds of the searches the server runs — an identity scan, a full-sibling scan, a 3-person mixture search, and every
 * RULES_EVERY rounds an identity and a full-sibling rule — each over another slice of the index with other of its
 * profiles as queries, answers thrown away (issue 29): a search's per-search code (planning, tables, stages, the chance
 * distribution) reaches V8's optimized code only after dozens to hundreds of searches, and its compiling on V8's helper
 * threads took the second core from searches running two at a time. The mixture's N is the whole index's.
 */
export function warmUpRounds(indexes: IndexSet, run: RunTask, sliceOf: (part: number, of: number) => IndexSet, { index, population, identity, kinship }: RoundInputs, budget: RoundBudget = ROUND_BUDGET): number {
  const group = firstGroup(index);
  // Under a slice's worth of profiles a search is quick even before V8 optimizes it (the server warms up from 10,000).
  if (!group || index.size < ROUND_PROFILES) return 0;
  const populations = [rulePopulation(population.id, population.id, population.kind, true, population.frequencies, population.haplotypes)];
  const send = sent(run);
  const rule = (analysis: MatchAnalysis, stringency: MatchRule['stringency']): MatchRule => ({ id: analysis.id, name: analysis.id, analysis, stringency, minMarkers: 8, maxMismatches: 0, threshold: { kind: 'likelihood-ratio', value: null }, searchedSampleTypes: [group.sampleType], populations });
  const rules = [rule(identity, 'moderate'), rule(kinship, null)];
  const mixture = rule(WARM_MIXTURE, null);
  const of = Math.max(1, Math.floor(index.size / ROUND_PROFILES));
  const profile = (genotypes: ReadonlyMap<string, Genotype>, id: string, sampleType: string): MatchProfile => ({ id, kind: 'Autosomal', chemistryId: index.chemistryId, organizationId: group.organizationId, sampleType, genotypes });
  const [cpuEnd, wallEnd] = [threadCpuMs() + budget.cpuMs, performance.now() + budget.wallMs];
  let round = 0;
  for (; round < (budget.rounds ?? MAX_ROUNDS) && threadCpuMs() < cpuEnd && performance.now() < wallEnd; round++) {
    const slice = sliceOf(round % of, of);
    // Queries spread over the index (a removed profile's slot gives the first profile instead).
    const at = (k: number) => index.genotypesOf(index.idAt(Math.floor(((round * 7 + k) * index.size) / (MAX_ROUNDS * 7 + 3)) % index.size)) ?? index.genotypesOf(index.idAt(0))!;
    send({ task: 'identity', kind: 'Autosomal', query: at(0), options: { stringency: 'moderate', minMarkers: 10, maxMismatches: 0 } }, slice, indexes);
    // Every other round the kinship and mixture searches as a split one's slice runs them: with the tables made before, in shares.
    const split = round % 2 === 1 ? SPLIT_SHARES : undefined;
    send({ task: 'scan', kind: 'Autosomal', request: { analysis: kinship, query: at(4), queryRole: 0, population, minMarkers: 6 } }, slice, indexes, split);
    send({ task: 'mixture-rule', rule: mixture, profile: profile(stainOf([at(1), at(2), at(3)]), `warm-up stain ${round}`, 'Forensic Mixture') }, slice, indexes, split);
    if (round % RULES_EVERY === 0) send({ task: 'rules', searches: [{ profile: profile(at(5), `warm-up ${round}`, group.sampleType), rules: 0 }], rules: [rules] }, slice, indexes);
  }
  return round;
}

/** A 3-person mixture analysis with a fixed drop-out (an estimated one simulates first; the search's code is the same after). */
const WARM_MIXTURE: MatchAnalysis = {
  id: 'warm-up mixture',
  kind: 'Mixture',
  profileKind: 'Autosomal',
  roles: ['Evidence', 'Person of interest'],
  threshold: 10_000,
  formulae: [],
  constants: {},
  mixture: { contributors: 3, dropout: { mode: 'fixed', values: [0.1] }, dropIn: 0.05, theta: 0.01, personOfInterestTypedUnderHd: true, normalizeFrequencies: false },
};

/** Contributors' alleles at each marker, every thirteenth dropped (a low-template stain). */
export function stainOf(contributors: readonly ReadonlyMap<string, Genotype>[]): Map<string, Genotype> {
  let k = 0;
  return new Map([...contributors[0]!.keys()].map((m) => [m, [...new Set(contributors.flatMap((c) => [...(c.get(m) ?? [])]))].filter(() => k++ % 13 !== 3)]));
}

/** A group the index holds profiles of (its first with a sample type). */
function firstGroup(index: ProfileIndex): ProfileGroup | null {
  let found: ProfileGroup | null = null;
  index.groupMask((g) => {
    if (!found && g.sampleType !== '') found = g;
    return false;
  });
  return found;
}
