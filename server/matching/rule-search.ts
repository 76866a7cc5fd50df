import type { LrDistribution } from '../genetics/statistics';
import type { Genotype } from '../genetics/types';
import { planAnalysis, scanAnalysis, type AnalysisMatch, type ScanRequest } from './analysis-scan';
import { candidateResults } from './candidate-results';
import { stringencyMatchProbability, unrelatedDistribution } from './chance-distribution';
import { fusedScan } from './fused-scan';
import { evaluablePopulations, type SkippedPopulation } from './evaluable-populations';
import { searchIdentity } from './identity-search';
import type { IndexSet } from './index-set';
import type { ProfileIndex } from './profile-index';
import { searchMixture } from './mixture-search';
import { searchContinuous } from './continuous-search';
import { ContinuousSearchSetting } from '../../core/schemas/continuous';
import { isRoleSymmetric } from './search-profile';
import { CHANCE_GRID_STEP, candidateGenotypes, chanceAt, reported, ruleMatchKind, rulePopulations, searchedCount, searchedIndexes, type MatchRule, type RuleChance, type RuleMatch, type RulePopulationResult } from './rule-match';
import type { IdentityCandidate, IdentityOptions, MatchPopulation, MatchProfile } from './types';


/**
 * A match with the populations that weighed no marker of its pair set apart as not evaluated (a population may hold
 * some of the query's markers and none the candidate shares), beside those the rule skipped for the query.
 */
function notEvaluatedApart(match: RuleMatch, skipped: readonly SkippedPopulation[], rule: MatchRule): RuleMatch {
  const unweighed = match.populations.filter((p) => p.populationId !== null && p.markerCount === 0 && p.nonExclusionMarkerCount === null);
  const populations = match.populations.filter((p) => !unweighed.includes(p));
  const apart = unweighed.map((p) => ({ populationId: p.populationId!, populationName: rule.populations.find((q) => q.id === p.populationId)?.name ?? '', reason: 'not evaluated: no marker of both profiles has frequencies in it' }));
  const all = [...skipped, ...(match.skippedPopulations ?? []), ...apart];
  return { ...match, populations, reportedPopulationId: reported(populations), ...(all.length > 0 ? { skippedPopulations: all } : {}) };
}

/**
 * The figures of every population of a rule for a short list of candidates, in the query's role: the
 * calculator's numbers (candidateResults, threshold lifted), each with its p-value among unrelated
 * profiles; `thresholdOf` gives the log10 threshold of a population's expected chance hits (null:
 * the probability is the stringency's, filled in by the caller).
 */
export function populationFigures(
  rule: MatchRule,
  profile: MatchProfile,
  queryRole: 0 | 1,
  candidates: ReadonlyMap<string, ReadonlyMap<string, Genotype>>,
  searched: number,
  distributions: Map<string, LrDistribution>,
  thresholdOf: (populationId: string) => number | null,
): Map<string, RulePopulationResult[]> {
  const { analysis } = rule;
  const pops = rulePopulations(rule);
  const out = new Map<string, RulePopulationResult[]>([...candidates.keys()].map((id) => [id, []]));
  const results = candidateResults(profile.kind, profile.genotypes, candidates, [analysis], pops, queryRole);
  for (const r of results) {
    const log10 = r.combinedIndex === null || r.combinedIndex <= 0 ? null : Math.log10(r.combinedIndex);
    let chance: RuleChance | null = null;
    const distribution = r.populationId === null ? undefined : distributionOf(rule, profile, queryRole, r.populationId, distributions);
    if (distribution) {
      const threshold = thresholdOf(r.populationId!);
      chance = chanceAt(distribution, searched, threshold ?? Infinity, log10 ?? (r.combinedIndex === 0 ? -Infinity : null));
      if (threshold === null) chance = { ...chance, thresholdLog10: null };
    }
    out.get(r.profileId)?.push({ populationId: r.populationId, combinedIndex: r.combinedIndex, log10, markerCount: r.markerCount, nonExclusionMarkerCount: r.nonExclusionMarkerCount, chance });
  }
  return out;
}

/** The unrelated-profile distribution of a population (autosomal computational analyses only), computed once per search. */
export function distributionOf(rule: MatchRule, profile: MatchProfile, queryRole: 0 | 1, populationId: string, cache: Map<string, LrDistribution>): LrDistribution | undefined {
  if (rule.analysis.kind !== 'Computational' || rule.analysis.profileKind !== 'Autosomal') return undefined;
  const key = `${populationId}:${queryRole}`;
  let distribution = cache.get(key);
  if (!distribution) {
    const population = rule.populations.find((p) => p.id === populationId);
    if (!population) return undefined;
    distribution = unrelatedDistribution(rule.analysis, profile.genotypes, queryRole, population, { step: CHANCE_GRID_STEP });
    cache.set(key, distribution);
  }
  return distribution;
}

/**
 * A CODIS identity rule (GENETICS.md "Database search"): the profiles meeting the stringency among the
 * searched ones, each with the rule analysis's figures per population and its p-value; the chance
 * that an unrelated profile meets the stringency is exact (Poisson-binomial over the markers).
 */
function searchStringency(rule: MatchRule, profile: MatchProfile, indexes: IndexSet, scans: IdentityScans): RuleMatch[] {
  const options = { stringency: rule.stringency!, minMarkers: rule.minMarkers, maxMismatches: rule.maxMismatches };
  const scoped = searchedIndexes(indexes, profile.kind, profile.organizationId, rule.searchedSampleTypes);
  const found = scans.found(options, scoped);
  if (found.length === 0) return [];
  const searched = searchedCount(scoped, profile, rule.searchedSampleTypes);
  return stringencyMatches(rule, profile, found, candidateGenotypes(indexes, found.map((c) => c.profileId)), searched);
}

/**
 * The figures of a CODIS identity rule's candidates (stringency counts already found) over the rule's
 * populations: the analysis's per population, and the exact chance that an unrelated profile meets the
 * stringency (GENETICS.md "Database search"). A search and a hit weighed again (issue 30) both come here.
 */
export function stringencyMatches(
  rule: MatchRule,
  profile: MatchProfile,
  found: readonly Pick<IdentityCandidate, 'profileId' | 'comparedMarkers' | 'mismatches'>[],
  genotypes: ReadonlyMap<string, ReadonlyMap<string, Genotype>>,
  searched: number,
): RuleMatch[] {
  const stringency = rule.stringency!;
  const options = { stringency, minMarkers: rule.minMarkers, maxMismatches: rule.maxMismatches };
  const pops = rulePopulations(rule);
  const chances = pops.map((p) => stringencyMatchProbability(stringency, profile.genotypes, p, options).probability);
  const probability = chances.length === 0 ? 0 : Math.max(...chances);
  const figures = populationFigures(rule, profile, 0, genotypes, searched, new Map(), () => null);
  return found.map((c) => {
    const results = (figures.get(c.profileId) ?? []).map((r) => {
      if (!r.chance) return r;
      const p = chances[pops.findIndex((pop) => pop.id === r.populationId)] ?? probability;
      return { ...r, chance: { ...r.chance, probability: p, probabilityBracket: { lower: p, upper: p }, expectedChanceHits: searched * p } };
    });
    return {
      ruleId: rule.id,
      analysisId: rule.analysis.id,
      matchKind: 'identity',
      queryId: profile.id,
      candidateId: c.profileId,
      queryRole: 0,
      symmetric: isRoleSymmetric(rule.analysis),
      populations: results,
      reportedPopulationId: reported(results),
      stringency: { stringency, comparedMarkers: c.comparedMarkers, mismatches: c.mismatches, probability, searchedProfiles: searched, expectedChanceHits: searched * probability },
    } satisfies RuleMatch;
  });
}

/** One scan lane of an analysis rule: a population (null for exclusion) and the query's role, with its log10 threshold. */
interface Lane {
  population: (MatchPopulation & { name: string }) | null;
  queryRole: 0 | 1;
  /** log10 of the LR a candidate must reach (computational) — or the most exclusions (exclusion). */
  cut: number;
}

/**
 * A rule ranked by its analysis: per population (and query role, for a table that is not
 * role-symmetric) the threshold — the LR, or the one giving at most the allowed expected chance hits
 * among the searched profiles — and one fused pass per index; a candidate is a match when it reaches
 * the threshold in every population (the reported, smallest LR, reaches it).
 */
function searchRanked(rule: MatchRule, profile: MatchProfile, indexes: IndexSet): RuleMatch[] {
  const { analysis } = rule;
  if (analysis.roles.length !== 2) return [];
  const scoped = searchedIndexes(indexes, profile.kind, profile.organizationId, rule.searchedSampleTypes);
  const searched = searchedCount(scoped, profile, rule.searchedSampleTypes);
  if (searched === 0) return [];
  const distributions = new Map<string, LrDistribution>();
  const roles: (0 | 1)[] = isRoleSymmetric(analysis) ? [0] : [0, 1];
  const limit = rule.threshold.value ?? analysis.threshold;
  if (limit === null) return [];
  const lanes: Lane[] = [];
  if (analysis.kind === 'Exclusion') {
    for (const queryRole of roles) lanes.push({ population: null, queryRole, cut: limit });
  } else {
    const pops = rulePopulations(rule);
    if (pops.length === 0) return [];
    for (const population of pops) {
      for (const queryRole of roles) {
        let cut = Math.log10(limit);
        if (rule.threshold.kind === 'expected-chance-hits') {
          const distribution = distributionOf(rule, profile, queryRole, population.id, distributions);
          if (!distribution) continue;
          cut = distribution.thresholdFor(limit / searched);
        }
        lanes.push({ population, queryRole, cut });
      }
    }
  }
  const request = (lane: Lane, mask: Uint8Array): ScanRequest => ({
    analysis: { ...analysis, threshold: analysis.kind === 'Exclusion' ? lane.cut : 10 ** lane.cut },
    query: profile.genotypes,
    queryRole: lane.queryRole,
    population: lane.population,
    minMarkers: rule.minMarkers,
    excludeId: profile.id,
    groups: mask,
  });
  // Per query role: candidate → the populations it reached.
  const reached = new Map<string, Map<string | null, AnalysisMatch>>();
  for (const { index, mask } of scoped) {
    const matches: AnalysisMatch[][] =
      profile.kind === 'Autosomal'
        ? fusedScan(lanes.map((lane) => planAnalysis(index, request(lane, mask))!))
        : lanes.map((lane) => scanAnalysis(index, request(lane, mask)));
    for (const [i, lane] of lanes.entries()) {
      for (const m of matches[i]!) {
        const key = `${lane.queryRole}:${m.profileId}`;
        if (!reached.has(key)) reached.set(key, new Map());
        reached.get(key)!.set(lane.population?.id ?? null, m);
      }
    }
  }
  const needed = new Set(lanes.map((l) => l.population?.id ?? null));
  const byRole = new Map<0 | 1, Set<string>>();
  for (const [key, pops] of reached) {
    if (![...needed].every((id) => pops.has(id))) continue;
    const [role, id] = [Number(key[0]) as 0 | 1, key.slice(2)];
    if (!byRole.has(role)) byRole.set(role, new Set());
    byRole.get(role)!.add(id);
  }
  const cutOf = new Map(lanes.map((l) => [`${l.population?.id ?? ''}:${l.queryRole}`, l.cut]));
  const out = new Map<string, RuleMatch>();
  for (const [queryRole, ids] of byRole) {
    const figures = populationFigures(rule, profile, queryRole, candidateGenotypes(indexes, ids), searched, distributions, (populationId) => cutOf.get(`${populationId}:${queryRole}`) ?? null);
    for (const [candidateId, results] of figures) {
      const match: RuleMatch = {
        ruleId: rule.id,
        analysisId: analysis.id,
        matchKind: ruleMatchKind(rule),
        queryId: profile.id,
        candidateId,
        queryRole,
        symmetric: roles.length === 1,
        populations: results,
        reportedPopulationId: reported(results),
        stringency: null,
      };
      // A table that is not role-symmetric was scanned with the query in each role: keep the stronger reading.
      const previous = out.get(candidateId);
      if (!previous || smallestIndex(match) > smallestIndex(previous)) out.set(candidateId, match);
    }
  }
  return [...out.values()];
}

/**
 * The CODIS identity scans of one profile's search, shared by its rules: rules with the same stringency,
 * minimum markers and mismatches read the index once, over every sample type any of them searches,
 * and each keeps the candidates of its own types (an approval's forensic and contamination rules are
 * one pass, not two).
 */
export class IdentityScans {
  private readonly done = new Map<string, { index: ProfileIndex; candidates: IdentityCandidate[] }[]>();

  constructor(
    private readonly profile: MatchProfile,
    private readonly indexes: IndexSet,
    private readonly rules: readonly MatchRule[],
  ) {}

  /** The candidates of one rule: its options, its searched profiles (`scoped`). */
  found(options: IdentityOptions, scoped: readonly { index: ProfileIndex; mask: Uint8Array }[]): IdentityCandidate[] {
    const key = `${options.stringency}:${options.minMarkers}:${options.maxMismatches}`;
    let scanned = this.done.get(key);
    if (!scanned) {
      const types = new Set(this.rules.filter((r) => r.stringency === options.stringency && r.minMarkers === options.minMarkers && r.maxMismatches === options.maxMismatches).flatMap((r) => r.searchedSampleTypes));
      scanned = searchedIndexes(this.indexes, this.profile.kind, this.profile.organizationId, [...types])
        // A sample type nobody holds is no reason to read a million profiles.
        .filter(({ index, mask }) => index.countInGroups(mask) > 0)
        .map(({ index, mask }) => ({ index, candidates: searchIdentity(index, this.profile.genotypes, options, this.profile.id, mask) }));
      this.done.set(key, scanned);
    }
    return scanned.flatMap(({ index, candidates }) => {
      const mask = scoped.find((s) => s.index === index)?.mask;
      return mask ? candidates.filter((c) => index.idInGroups(c.profileId, mask)) : [];
    });
  }
}

/**
 * A mixture rule's matches: with the continuous model when the stain has peak heights (issue 31, the analysis's
 * contributors, drop-in, θ and frequency rule; the kit's analytical threshold), else the semi-continuous one.
 */
function mixtureMatches(rule: MatchRule, profile: MatchProfile, indexes: IndexSet): RuleMatch[] {
  const heights = profile.heights;
  if (!heights) return searchMixture(rule, profile, indexes).matches;
  const stain = { replicates: heights.replicates, markerThresholds: heights.markerThresholds, fragmentSizes: heights.fragmentSizes, knownContributors: [] };
  return searchContinuous(rule, profile, indexes, stain, ContinuousSearchSetting.parse(heights.analyticalThreshold === null ? {} : { analyticalThreshold: heights.analyticalThreshold }));
}

const smallestIndex = (m: RuleMatch) => Math.min(...m.populations.map((p) => p.combinedIndex ?? p.nonExclusionMarkerCount ?? 0));

/**
 * Runs one search rule for an approved profile (ARCHITECTURE.md "Search policy"): only the same
 * organization's approved profiles of the searched sample types, never the profile itself; each
 * candidate once, with every population's figures and the expected chance hits.
 */
export function searchRule(rule: MatchRule, profile: MatchProfile, indexes: IndexSet, scans = new IdentityScans(profile, indexes, [rule])): RuleMatch[] {
  if (rule.analysis.profileKind !== profile.kind) return [];
  // A population holding none of the profile's markers is not evaluated: it neither blocks the rule nor is reported.
  const { usable, skipped } = rule.analysis.kind === 'Exclusion' ? { usable: rule.populations, skipped: [] } : evaluablePopulations(rulePopulations(rule), profile.genotypes);
  const weighing = { ...rule, populations: usable };
  const matches = rule.analysis.kind === 'Mixture' ? mixtureMatches(weighing, profile, indexes) : rule.stringency !== null ? searchStringency(weighing, profile, indexes, scans) : searchRanked(weighing, profile, indexes);
  return matches.map((m) => notEvaluatedApart(m, skipped, rule)).sort((a, b) => (a.candidateId < b.candidateId ? -1 : a.candidateId > b.candidateId ? 1 : 0));
}

/** Every match of each rule for `profile` (never itself), rule by rule; `onRule` hears each rule done (the queue shows it). */
export function searchEachRule(profile: MatchProfile, rules: readonly MatchRule[], indexes: IndexSet, onRule?: (done: number, total: number) => void): RuleMatch[] {
  const found: RuleMatch[] = [];
  const scans = new IdentityScans(profile, indexes, rules);
  for (const [i, rule] of rules.entries()) {
    found.push(...searchRule(rule, profile, indexes, scans));
    onRule?.(i + 1, rules.length);
  }
  return found;
}
