import { evaluatePedigree, modelsFor, type PedigreeEvaluation } from '../genetics/evaluate-pedigree';
import type { LrDistribution } from '../genetics/statistics';
import type { Genotype } from '../genetics/types';
import type { IndexSet } from '../matching/index-set';
import { familyUnrelatedDistribution, scanFamily, type FamilySearch } from '../matching/missing-person-scan';
import { chanceAt, CHANCE_GRID_STEP, searchedIndexes, type RuleChance } from '../matching/rule-match';
import { DEFAULT_SEARCH_OPTIONS } from '../matching/types';
import type { FamilyPopulation, LoadedFamily } from './load-family';

/** The sample type a family searches (issue 16; CMF's category for unidentified remains). */
export const REMAINS_SAMPLE_TYPE = 'Unidentified Human (Remains)';

/** One population's result for a remains profile placed as the missing person, with its chance figures. */
export interface FamilyPopulationResult {
  population: FamilyPopulation;
  evaluation: PedigreeEvaluation;
  markerCount: number;
  chance: RuleChance | null;
}

/** A remains profile weighed against a family in every population; `reported` is the smallest LR's (ARCHITECTURE.md "Hits"). */
export interface FamilyMatch {
  profileId: string;
  results: FamilyPopulationResult[];
  reported: FamilyPopulationResult;
}

/** Each autosomal index with the mask of the remains the family searches (its organizations', loaded.organizationIds). */
const searchedRemainsIndexes = (loaded: LoadedFamily, indexes: IndexSet) => searchedIndexes(indexes, 'Autosomal', loaded.organizationIds, [REMAINS_SAMPLE_TYPE]);

/** The family as the scan weighs it in one population. */
function searchOf(loaded: LoadedFamily, population: FamilyPopulation): FamilySearch {
  return {
    persons: loaded.hypotheses.h1,
    target: loaded.hypotheses.target,
    relatives: loaded.relatives,
    population: population.frequencies,
    models: modelsFor(loaded.mutation),
    threshold: loaded.family.threshold,
    minMarkers: DEFAULT_SEARCH_OPTIONS.minMarkers,
  };
}

/** The markers a family compares: those at least one relative is typed at. */
const familyMarkers = (loaded: LoadedFamily) => [...new Set([...loaded.relatives.values()].flatMap((g) => [...g.keys()]))];

/** The remains profiles the family's search compares with, every organization it searches (N of the expected chance hits: the level's at an upper level). */
export function searchedRemains(loaded: LoadedFamily, indexes: IndexSet): number {
  return searchedRemainsIndexes(loaded, indexes).reduce((n, { index, mask }) => n + index.countInGroups(mask), 0);
}

/**
 * A remains profile placed as the family's missing person: per population the calculator's pedigree evaluation
 * (the same numbers `analyze` gives), with P(LR ≥ threshold) and P(LR ≥ this LR) for an unrelated profile
 * (GENETICS.md "Expected chance hits") among `searched` profiles.
 */
export function weighRemains(loaded: LoadedFamily, profileId: string, genotypes: ReadonlyMap<string, Genotype>, searched: number, distributions: Map<string, LrDistribution>): FamilyMatch {
  const { analysis, hypotheses } = loaded;
  const profilesInRoles = analysis.roles.map((role) => (role === hypotheses.target ? genotypes : (loaded.relatives.get(role) ?? new Map<string, Genotype>())));
  const thresholdLog10 = Math.log10(loaded.family.threshold);
  const results = loaded.populations.map((population): FamilyPopulationResult => {
    const evaluation = evaluatePedigree(hypotheses, analysis.roles, profilesInRoles, population.frequencies, modelsFor(loaded.mutation), [...genotypes.keys()]);
    return { population, evaluation, markerCount: evaluation.markers.filter((m) => m.value !== null).length, chance: null };
  });
  const reported = results.reduce((best, r) => ((r.evaluation.combinedIndex ?? 0) < (best.evaluation.combinedIndex ?? 0) ? r : best));
  const match = { profileId, results, reported };
  // The chance figures only for a hit: a family's unrelated distribution costs ten times its LR (issue 29: an
  // approved remains profile weighed against every active family rebuilt them all, 0.5 s a family).
  if (!isFamilyHit(loaded, match)) return match;
  for (const result of results) {
    let distribution = distributions.get(result.population.id);
    if (!distribution) {
      distribution = familyUnrelatedDistribution(searchOf(loaded, result.population), familyMarkers(loaded), CHANCE_GRID_STEP);
      distributions.set(result.population.id, distribution);
    }
    const { evaluation } = result;
    const observed = evaluation.combinedIndex === null ? null : evaluation.combinedIndex === 0 ? -Infinity : evaluation.log10!;
    result.chance = chanceAt(distribution, searched, thresholdLog10, observed);
  }
  return match;
}

/** Whether a weighed remains profile is a hit: the LR reaches the threshold in every population, over enough markers. */
export const isFamilyHit = (loaded: LoadedFamily, match: FamilyMatch): boolean =>
  match.results.every((r) => (r.evaluation.combinedIndex ?? 0) >= loaded.family.threshold && r.markerCount >= DEFAULT_SEARCH_OPTIONS.minMarkers);

/**
 * Every approved remains profile of the family's organizations (its own; the level's at an upper level) weighed as
 * its missing person (issue 16, GENETICS.md "How the search reaches memory speed"): the first population's tables and
 * the index scan find the candidates (reaching the threshold there is necessary), each is then weighed exactly in
 * every population.
 */
export function searchFamilyRemains(loaded: LoadedFamily, indexes: IndexSet): { matches: FamilyMatch[]; searched: number } {
  const searched = searchedRemains(loaded, indexes);
  const first = loaded.populations[0];
  if (!first || searched === 0) return { matches: [], searched };
  const search = searchOf(loaded, first);
  const candidates = searchedRemainsIndexes(loaded, indexes).flatMap(({ index, mask }) => scanFamily(index, { ...search, groups: mask }).map((m) => ({ index, id: m.profileId })));
  const distributions = new Map<string, LrDistribution>();
  const matches: FamilyMatch[] = [];
  for (const c of candidates) {
    const held = indexes.find(c.id);
    if (!held) continue;
    const match = weighRemains(loaded, c.id, held.genotypes, searched, distributions);
    if (isFamilyHit(loaded, match)) matches.push(match);
  }
  return { matches, searched };
}
