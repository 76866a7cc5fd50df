// A familial search on request (ARCHITECTURE.md "Search policy": "familial searching of offender
// categories is a deliberate request that returns a ranked candidate list"): every profile a rule
// searches is scored by the rule's kinship analysis in every chosen population, ranked by its
// smallest LR, and the top N are reported with GENETICS.md "Expected chance hits" at each rank.
import type { LrDistribution } from '../genetics/statistics';
import { MAX_INCONSISTENCIES } from '../genetics/evaluate-analysis';
import { planAnalysis, type AnalysisPlan } from './analysis-scan';
import type { IndexSet } from './index-set';
import type { ProfileIndex } from './profile-index';
import { evaluablePopulations, type SkippedPopulation } from './evaluable-populations';
import { candidateGenotypes, reported, ruleMatchKind, rulePopulations, searchedCount, searchedIndexes, type MatchRule, type RuleMatch, type RulePopulationResult } from './rule-match';
import { populationFigures } from './rule-search';
import { isRoleSymmetric } from './search-profile';
import type { MatchProfile } from './types';

/** Profiles per block: a lane's sums stay in the L1 cache while each marker's columns are read. */
const BLOCK = 4096;

/** One ranked candidate: a RuleMatch whose chance figures are taken at its own LR, and its place in the list. */
export interface FamilialCandidate extends RuleMatch {
  /** 1 for the strongest. */
  rank: number;
  /** The smallest combined index over the populations: what the list is ranked by (conservative). */
  smallestCombinedIndex: number;
}

export interface FamilialRanking {
  /** Profiles the rule compared the query with (N): its organization's approved profiles of the searched sample types, the query not counted. */
  searchedProfiles: number;
  candidates: FamilialCandidate[];
  /** The rule's populations not evaluated for the profile (none of its markers), and why (issue 30). */
  skipped?: SkippedPopulation[];
}

/** Why a candidate named for promotion cannot be scored; the HTTP layer reports it as skipped. */
export type FamilialRefusal = 'not-indexed' | 'query' | 'excluded' | 'too-few-markers';

type ComputationalPlan = Extract<AnalysisPlan, { kind: 'computational' }>;

/**
 * Why a rule cannot rank a database for a familial search, or null when it can: it must rank by an
 * autosomal two-role computational analysis (a likelihood ratio), not by CODIS stringency.
 */
export function familialRuleProblem(rule: Pick<MatchRule, 'analysis' | 'stringency'>): string | null {
  const { analysis } = rule;
  if (rule.stringency !== null) return 'it is a CODIS identity rule (it searches by stringency), not a kinship ranking';
  if (analysis.kind !== 'Computational') return 'its analysis counts exclusions; a familial search ranks by a likelihood ratio';
  if (analysis.profileKind !== 'Autosomal') return 'its analysis compares Y-STR haplotypes; a familial search ranks autosomal profiles';
  if (analysis.roles.length !== 2) return `its analysis has ${analysis.roles.length} roles; a familial search compares two profiles`;
  return null;
}

/** The rule with an analysis threshold the scans accept (none is applied: every searched profile is scored). */
const unthresholded = (rule: MatchRule): MatchRule => ({ ...rule, analysis: { ...rule.analysis, threshold: 0 } });

/** The query roles a rule's table is read in: one when swapping the roles changes no formula. */
const queryRoles = (rule: MatchRule): (0 | 1)[] => (isRoleSymmetric(rule.analysis) ? [0] : [0, 1]);

/** A heap entry: a profile's ranking score (log10 of its smallest LR) and where it lives. */
interface Entry {
  score: number;
  id: string;
  role: 0 | 1;
}

/** `a` ranks before `b`: a larger smallest LR, ties by profile id (so the list is the same every time). */
const before = (a: Entry, b: Entry) => a.score > b.score || (a.score === b.score && a.id < b.id);

/** The best `limit` entries seen, the worst of them at the root: O(log limit) per entry kept, nothing else stored. */
class TopN {
  readonly items: Entry[] = [];
  constructor(private readonly limit: number) {}

  get full(): boolean {
    return this.items.length >= this.limit;
  }

  /** The score an entry must reach (ties decided by id); −∞ while the list is not full. */
  get floor(): number {
    return this.full ? this.items[0]!.score : -Infinity;
  }

  offer(entry: Entry): void {
    const { items } = this;
    if (!this.full) {
      items.push(entry);
      let i = items.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!before(items[parent]!, items[i]!)) break;
        [items[parent], items[i]] = [items[i]!, items[parent]!];
        i = parent;
      }
      return;
    }
    if (!before(entry, items[0]!)) return;
    items[0] = entry;
    for (let i = 0; ; ) {
      const [l, r] = [2 * i + 1, 2 * i + 2];
      let worst = i;
      if (l < items.length && before(items[worst]!, items[l]!)) worst = l;
      if (r < items.length && before(items[worst]!, items[r]!)) worst = r;
      if (worst === i) break;
      [items[worst], items[i]] = [items[i]!, items[worst]!];
      i = worst;
    }
  }
}

/** One query role over one index: a plan per population (the same markers, the same columns, different tables). */
interface Lane {
  role: 0 | 1;
  plans: ComputationalPlan[];
}

/**
 * Whether the exact verdict (analysis-scan.ts matchAt) keeps a profile in every population: enough
 * markers compared, no more inconsistent markers than maxInconsistencies, an LR above 0. The
 * marker and inconsistency counts, which do not depend on the population, are read from the first
 * plan's tables before any matchAt is asked.
 */
function accepted(lane: Lane, slot: number, minMarkers: number, allowed: number): boolean {
  const first = lane.plans[0]!;
  let compared = 0;
  let inconsistent = 0;
  for (const plan of first.plans) {
    const code = (plan.lo[slot]! << plan.shift) | plan.hi[slot]!;
    compared += plan.evaluated[code]!;
    inconsistent += plan.inconsistent[code]!;
  }
  if (compared < minMarkers || inconsistent > allowed) return false;
  return lane.plans.every((plan) => (plan.matchAt(slot)?.combinedIndex ?? 0) > 0);
}

/** Per slot of a block, the log10 LR of a lane's first population: per marker one lookup per profile, summed block-wise. */
function firstSums(lane: Lane, start: number, n: number, sum: Float64Array): void {
  sum.fill(0, 0, n);
  for (const { lo, hi, shift, table } of lane.plans[0]!.plans) {
    for (let i = 0; i < n; i++) sum[i] = sum[i]! + table[(lo[start + i]! << shift) | hi[start + i]!]!;
  }
}

/** A slot's smallest log10 LR over the lane's populations, the first one's given (summed in the same marker order, so the same number). */
function smallestOver(lane: Lane, slot: number, first: number): number {
  let smallest = first;
  for (let p = 1; p < lane.plans.length; p++) {
    let sum = 0;
    for (const { lo, hi, shift, table } of lane.plans[p]!.plans) sum += table[(lo[slot]! << shift) | hi[slot]!]!;
    if (!(sum >= smallest)) smallest = sum;
  }
  return smallest;
}

/**
 * Ranks one index's column profiles into `top`, block by block: each lane's first population is
 * summed for every profile (one table lookup per marker and profile); the smallest LR over the
 * populations is at most that, so only a profile whose first sum reaches the list's floor (the
 * worst score kept) has its other populations summed, then the exact verdict asked. Once the list
 * is full the floor is high and nearly every profile stops after the first population.
 */
function rankIndex(index: ProfileIndex, lanes: readonly Lane[], mask: Uint8Array, queryId: string, top: TopN, minMarkers: number, allowed: number): void {
  const sums = lanes.map(() => new Float64Array(BLOCK));
  const scores = lanes.map(() => -Infinity);
  const order = lanes.map((_, l) => l);
  let floor = top.floor;
  const querySlot = index.slotOf(queryId);
  for (let start = 0; start < index.size; start += BLOCK) {
    const n = Math.min(index.size, start + BLOCK) - start;
    for (const [l, lane] of lanes.entries()) firstSums(lane, start, n, sums[l]!);
    for (let i = 0; i < n; i++) {
      let bound = sums[0]![i]!;
      for (let l = 1; l < lanes.length; l++) if (sums[l]![i]! > bound) bound = sums[l]![i]!;
      // LR 0 is no candidate; under the floor none can enter (a tie goes on to the id).
      if (bound === -Infinity || !(bound >= floor)) continue;
      const slot = start + i;
      if (!index.slotInGroups(slot, mask) || slot === querySlot) continue;
      for (const [l, lane] of lanes.entries()) scores[l] = sums[l]![i]! >= floor ? smallestOver(lane, slot, sums[l]![i]!) : -Infinity;
      // The strongest role the exact verdict keeps; a refused role gives way to the next.
      order.sort((a, b) => scores[b]! - scores[a]!);
      for (const l of order) {
        const score = scores[l]!;
        if (score === -Infinity || !(score >= floor)) break;
        if (!accepted(lanes[l]!, slot, minMarkers, allowed)) continue;
        top.offer({ score, id: index.idAt(slot), role: lanes[l]!.role });
        floor = top.floor;
        break;
      }
    }
  }
  // The side list (mixtures, full dictionaries): few profiles, each through the exact verdict, in its strongest role.
  const side = new Map<string, Entry>();
  for (const lane of lanes) {
    const byPopulation = lane.plans.map((plan) => new Map(plan.sideMatches().map((m) => [m.profileId, m.combinedIndex ?? 0])));
    for (const id of byPopulation[0]!.keys()) {
      const smallest = Math.min(...byPopulation.map((found) => found.get(id) ?? 0));
      const entry: Entry = { score: Math.log10(smallest), id, role: lane.role };
      const previous = side.get(id);
      if (smallest > 0 && (!previous || entry.score > previous.score)) side.set(id, entry);
    }
  }
  for (const entry of side.values()) top.offer(entry);
}

/**
 * Each candidate's figures in every population of the rule, in the query's role, as a search rule
 * reports them (populationFigures: the calculator's numbers, the p-value among unrelated profiles),
 * with the chance figures taken at the candidate's own LR: the expected number of chance candidates
 * at its rank is N × P(LR ≥ its LR | unrelated). A candidate with fewer than the rule's minMarkers
 * compared, or excluded (LR 0) in some population, gets the reason instead.
 */
function candidateFigures(
  rule: MatchRule,
  profile: MatchProfile,
  indexes: IndexSet,
  roles: ReadonlyMap<string, 0 | 1>,
  searched: number,
  distributions: Map<string, LrDistribution>,
): Map<string, Omit<FamilialCandidate, 'rank'> | FamilialRefusal> {
  const out = new Map<string, Omit<FamilialCandidate, 'rank'> | FamilialRefusal>();
  const scoring = unthresholded(rule);
  for (const role of [0, 1] as const) {
    const ids = [...roles].filter(([, r]) => r === role).map(([id]) => id);
    if (ids.length === 0) continue;
    const figures = populationFigures(scoring, profile, role, candidateGenotypes(indexes, ids), searched, distributions, () => null);
    for (const [candidateId, results] of figures) {
      const populations: RulePopulationResult[] = results.map((r) =>
        r.chance && r.chance.pValue !== null && r.chance.pValueBracket !== null
          ? { ...r, chance: { ...r.chance, thresholdLog10: r.log10, probability: r.chance.pValue, probabilityBracket: r.chance.pValueBracket, expectedChanceHits: searched * r.chance.pValue } }
          : r,
      );
      const smallest = Math.min(...populations.map((p) => p.combinedIndex ?? 0));
      if (populations.length === 0 || populations.some((p) => p.markerCount < rule.minMarkers)) out.set(candidateId, 'too-few-markers');
      else if (!(smallest > 0)) out.set(candidateId, 'excluded');
      else
        out.set(candidateId, {
          ruleId: rule.id,
          analysisId: rule.analysis.id,
          matchKind: ruleMatchKind(rule),
          queryId: profile.id,
          candidateId,
          queryRole: role,
          populations,
          reportedPopulationId: reported(populations),
          stringency: null,
          smallestCombinedIndex: smallest,
        });
    }
  }
  return out;
}

const isCandidate = (c: Omit<FamilialCandidate, 'rank'> | FamilialRefusal): c is Omit<FamilialCandidate, 'rank'> => typeof c !== 'string';

/** The order of a ranked list: the larger smallest LR first, ties by profile id. */
const byRank = (a: Omit<FamilialCandidate, 'rank'>, b: Omit<FamilialCandidate, 'rank'>) =>
  b.smallestCombinedIndex - a.smallestCombinedIndex || (a.candidateId < b.candidateId ? -1 : a.candidateId > b.candidateId ? 1 : 0);

/**
 * A familial search (ARCHITECTURE.md "Search policy"; GENETICS.md "How the search reaches memory
 * speed", "Expected chance hits"): every profile the rule searches — its organization's approved
 * profiles of the searched sample types, never the query — scored by the rule's kinship analysis in
 * every population of the rule, ranked by the smallest LR across populations (the conservative
 * reading), the best `limit` kept with each population's combined index, p-value and expected number
 * of chance candidates at that rank (N × p-value). Profiles the exact verdict refuses (fewer than the
 * rule's minMarkers compared, more inconsistent markers than maxInconsistencies, LR 0 somewhere) are
 * dropped. One block-wise pass per index sums the per-marker tables of every population and keeps
 * each profile's minimum; only profiles beating the list's current floor are looked at further, so
 * nothing is sorted but the final list.
 */
export function rankRule(given: MatchRule, profile: MatchProfile, indexes: IndexSet, { limit }: { limit: number }): FamilialRanking {
  const problem = familialRuleProblem(given);
  if (problem) throw new Error(`Search rule ${given.name} cannot rank a familial search: ${problem}`);
  // A population holding none of the profile's markers would rank everyone at LR 1: not evaluated, named.
  const { usable, skipped } = evaluablePopulations(rulePopulations(given), profile.genotypes);
  const rule = { ...given, populations: usable };
  const scoped = searchedIndexes(indexes, profile.kind, profile.organizationId, rule.searchedSampleTypes);
  const searched = searchedCount(scoped, profile, rule.searchedSampleTypes);
  const pops = rulePopulations(rule);
  if (profile.kind !== rule.analysis.profileKind || pops.length === 0 || searched === 0 || limit < 1) return { searchedProfiles: searched, candidates: [], skipped };

  const scoring = unthresholded(rule);
  const allowed = rule.analysis.constants[MAX_INCONSISTENCIES] ?? Infinity;
  const top = new TopN(limit);
  for (const { index, mask } of scoped) {
    if (index.countInGroups(mask) === 0) continue;
    const lanes: Lane[] = queryRoles(rule).map((role) => ({
      role,
      plans: pops.map(
        (population) =>
          planAnalysis(index, { analysis: scoring.analysis, query: profile.genotypes, queryRole: role, population, minMarkers: rule.minMarkers, excludeId: profile.id, groups: mask }) as ComputationalPlan,
      ),
    }));
    rankIndex(index, lanes, mask, profile.id, top, rule.minMarkers, allowed);
  }

  const roles = new Map(top.items.map((e) => [e.id, e.role]));
  const figures = candidateFigures(rule, profile, indexes, roles, searched, new Map());
  const ranked = [...figures.values()].filter(isCandidate).sort(byRank);
  return { searchedProfiles: searched, candidates: ranked.map((c, i) => ({ ...c, rank: i + 1 })), skipped };
}

/**
 * The figures of chosen candidates, computed again on the server as rankRule computes them (a
 * promotion never trusts the browser's numbers): each in the query role giving the larger smallest
 * LR, or the reason it cannot be scored. The caller checks that each is an approved profile of the
 * searched sample types in the query's organization; the rank is the candidate's place among them.
 */
export function scoreCandidates(given: MatchRule, profile: MatchProfile, indexes: IndexSet, candidateIds: readonly string[]): { searchedProfiles: number; scored: Map<string, FamilialCandidate | FamilialRefusal> } {
  const problem = familialRuleProblem(given);
  if (problem) throw new Error(`Search rule ${given.name} cannot rank a familial search: ${problem}`);
  const rule = { ...given, populations: evaluablePopulations(rulePopulations(given), profile.genotypes).usable };
  const scoped = searchedIndexes(indexes, profile.kind, profile.organizationId, rule.searchedSampleTypes);
  const searched = searchedCount(scoped, profile, rule.searchedSampleTypes);
  const scored = new Map<string, FamilialCandidate | FamilialRefusal>();
  const indexed = [...new Set(candidateIds)].filter((id) => {
    if (id === profile.id) scored.set(id, 'query');
    else if (!indexes.find(id)) scored.set(id, 'not-indexed');
    else return true;
    return false;
  });
  const distributions = new Map<string, LrDistribution>();
  const best = new Map<string, Omit<FamilialCandidate, 'rank'> | FamilialRefusal>();
  for (const role of queryRoles(rule)) {
    const figures = candidateFigures(rule, profile, indexes, new Map(indexed.map((id) => [id, role])), searched, distributions);
    for (const [id, candidate] of figures) {
      const previous = best.get(id);
      // A table that is not role-symmetric is read with the query in each role: the stronger reading stands.
      if (previous === undefined || (isCandidate(candidate) && (!isCandidate(previous) || candidate.smallestCombinedIndex > previous.smallestCombinedIndex))) best.set(id, candidate);
    }
  }
  const kept = [...best.values()].filter(isCandidate).sort(byRank);
  for (const [i, c] of kept.entries()) scored.set(c.candidateId, { ...c, rank: i + 1 });
  for (const [id, refusal] of best) if (!isCandidate(refusal)) scored.set(id, refusal);
  return { searchedProfiles: searched, scored };
}
