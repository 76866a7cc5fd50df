import type { ContinuousCandidateFigures } from '../../core/schemas/continuous';
import type { LrDistribution } from '../genetics/statistics';
import type { SkippedPopulation } from './evaluable-populations';
import type { Genotype } from '../genetics/types';
import type { IndexSet } from './index-set';
import type { ProfileIndex } from './profile-index';
import type { MatchAnalysis, MatchPopulation, MatchProfile, ProfileKind, Stringency } from './types';

// What a search rule is and what it finds, with the figures every kind of rule search reports the same way:
// the rule's own search (rule-search.ts) and the mixture search (mixture-search.ts) both build on it.

/** What a hit says of its profiles: the same source (a stringency rule), relatives (an LR), or not excluded. */
export type RuleMatchKind = 'identity' | 'kinship' | 'exclusion' | 'mixture';

/** A search rule as the matcher runs it (ARCHITECTURE.md "Search policy"), its populations resolved. */
export interface MatchRule {
  id: string;
  name: string;
  analysis: MatchAnalysis;
  /** Set: a CODIS identity rule (the analysis gives the statistics); null: ranked by the analysis. */
  stringency: Stringency | null;
  minMarkers: number;
  maxMismatches: number;
  /** Likelihood ratio (or most exclusions), or the most chance hits a search may expect; null value: the analysis's threshold. */
  threshold: { kind: 'likelihood-ratio' | 'expected-chance-hits'; value: number | null };
  searchedSampleTypes: readonly string[];
  populations: readonly (MatchPopulation & { name: string; synthetic: boolean })[];
}

/** GENETICS.md "Expected chance hits": the bracketed probability that an unrelated profile reaches the threshold, and N × it. */
export interface RuleChance {
  searchedProfiles: number;
  thresholdLog10: number | null;
  probability: number;
  probabilityBracket: { lower: number; upper: number };
  expectedChanceHits: number;
  pValue: number | null;
  pValueBracket: { lower: number; upper: number } | null;
  gridStep: number;
}

/** One population's figures for a candidate. */
export interface RulePopulationResult {
  populationId: string | null;
  combinedIndex: number | null;
  log10: number | null;
  markerCount: number;
  nonExclusionMarkerCount: number | null;
  chance: RuleChance | null;
  /** A continuous-model search's figures (issue 31): the scan's LR at Hd's fit, the exact one from the candidate's own fit, the parameters. */
  continuous?: ContinuousCandidateFigures;
}

/** One candidate a rule found: the pair in the analysis's role order, every population's result, the stringency counts. */
export interface RuleMatch {
  ruleId: string;
  analysisId: string;
  matchKind: RuleMatchKind;
  queryId: string;
  candidateId: string;
  /** The query's role (0 or 1) in the analysis. */
  queryRole: 0 | 1;
  /** The analysis's table reads the same with its roles swapped: the hit may list its profiles in either order. */
  symmetric?: boolean;
  populations: RulePopulationResult[];
  /** The population reported (the smallest LR), or null for an exclusion analysis. */
  reportedPopulationId: string | null;
  stringency: { stringency: Stringency; comparedMarkers: number; mismatches: number; probability: number; searchedProfiles: number; expectedChanceHits: number } | null;
  /** The rule's populations not weighed for this pair, and why (issue 30): never LR 1, never the reported one. */
  skippedPopulations?: SkippedPopulation[];
}

/** Width of the log10 grid of the chance distributions: 0.001 brackets a 20-marker tail within a few percent, in milliseconds. */
export const CHANCE_GRID_STEP = 0.001;

/** The match kind a rule's hits have. */
export const ruleMatchKind = (rule: Pick<MatchRule, 'stringency' | 'analysis'>): RuleMatchKind =>
  rule.stringency !== null ? 'identity' : rule.analysis.kind === 'Exclusion' ? 'exclusion' : rule.analysis.kind === 'Mixture' ? 'mixture' : 'kinship';

/** The rule's populations that can compute its analysis (none for an exclusion analysis). */
export const rulePopulations = (rule: MatchRule) => (rule.analysis.kind === 'Exclusion' ? [] : rule.populations.filter((p) => p.kind === rule.analysis.profileKind));

/** Each index of the kind with the mask of the rule's searched profiles: the query's organization, the searched sample types. */
export function searchedIndexes(indexes: IndexSet, kind: ProfileKind, organizationId: string | readonly string[], sampleTypes: readonly string[]) {
  const inScope = typeof organizationId === 'string' ? (id: string) => id === organizationId : (id: string) => organizationId.includes(id);
  return indexes.indexes(kind).map((index) => ({ index, mask: index.groupMask((g) => inScope(g.organizationId) && sampleTypes.includes(g.sampleType)) }));
}

/** Profiles a rule compares the query with (N): its searched profiles, the query itself not counted. */
export function searchedCount(indexes: readonly { index: ProfileIndex; mask: Uint8Array }[], profile: MatchProfile, sampleTypes: readonly string[]): number {
  const total = indexes.reduce((n, { index, mask }) => n + index.countInGroups(mask), 0);
  const selfInside = profile.sampleType !== undefined && sampleTypes.includes(profile.sampleType) && indexes.some(({ index }) => index.has(profile.id));
  return Math.max(0, total - (selfInside ? 1 : 0));
}

/**
 * Profiles a rule compares the query with over several organizations (an upper level's held laboratories, each
 * searched apart): N of GENETICS.md "Expected chance hits" for the whole level, the query itself not counted.
 */
export function levelSearchedCount(indexes: IndexSet, profile: MatchProfile, organizationIds: readonly string[], sampleTypes: readonly string[]): number {
  return searchedCount(searchedIndexes(indexes, profile.kind, organizationIds, sampleTypes), profile, sampleTypes);
}

/** A match's chance figures for N = `searched` profiles: the same probabilities, N × each (GENETICS.md "Expected chance hits"). */
export function withSearchedCount(match: RuleMatch, searched: number): RuleMatch {
  return {
    ...match,
    populations: match.populations.map((p) => (p.chance ? { ...p, chance: { ...p.chance, searchedProfiles: searched, expectedChanceHits: searched * p.chance.probability } } : p)),
    stringency: match.stringency ? { ...match.stringency, searchedProfiles: searched, expectedChanceHits: searched * match.stringency.probability } : null,
  };
}

/** A bracket's reported value is its upper end (conservative); the expected count is N × that. */
export function chanceAt(distribution: LrDistribution, searched: number, thresholdLog10: number, observedLog10: number | null): RuleChance {
  const at = distribution.tail(thresholdLog10);
  const p = observedLog10 === null ? null : distribution.tail(observedLog10);
  return {
    searchedProfiles: searched,
    thresholdLog10,
    probability: at.upper,
    probabilityBracket: { lower: at.lower, upper: at.upper },
    expectedChanceHits: searched * at.upper,
    pValue: p?.upper ?? null,
    pValueBracket: p ? { lower: p.lower, upper: p.upper } : null,
    gridStep: distribution.step,
  };
}

/** The query's genotypes and its candidates' (decoded from the index) for the calculator-equal figures of a short list. */
export function candidateGenotypes(indexes: IndexSet, ids: Iterable<string>): Map<string, ReadonlyMap<string, Genotype>> {
  const out = new Map<string, ReadonlyMap<string, Genotype>>();
  for (const id of ids) {
    const found = indexes.find(id);
    if (found) out.set(id, found.genotypes);
  }
  return out;
}

/** The population with the smallest combined index is the one a hit reports (the most conservative); one that weighed no marker never is. */
export function reported(results: readonly RulePopulationResult[]): string | null {
  let best: RulePopulationResult | null = null;
  for (const r of results) if (r.populationId !== null && r.markerCount > 0 && (best === null || (r.combinedIndex ?? 0) < (best.combinedIndex ?? 0))) best = r;
  return best?.populationId ?? null;
}
