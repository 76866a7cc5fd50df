import type { LrDistribution, LrTail } from '../genetics/statistics';
import type { Genotype } from '../genetics/types';
import { stringencyMatchProbability, unrelatedDistribution } from './chance-distribution';
import { CHANCE_GRID_STEP } from './rule-match';
import type { IdentityOptions, MatchAnalysis, MatchPopulation, ProfileKind, Stringency } from './types';

/** What a keyboard search's chance figures need: the typed profile, its stringency, and the listed results to give p-values. */
export interface KeyboardChanceInput {
  kind: ProfileKind;
  query: ReadonlyMap<string, Genotype>;
  stringency: Stringency;
  options: Pick<IdentityOptions, 'minMarkers' | 'maxMismatches'>;
  populations: readonly MatchPopulation[];
  analyses: readonly MatchAnalysis[];
  /** One per listed result: its analysis, population and LR. */
  asked: readonly { analysisId: string; populationId: string | null; combinedIndex: number | null }[];
}

/** The chance figures, in the input's order: per population the stringency's match probability, per asked result its p-value bracket. */
export interface KeyboardChance {
  probabilities: number[];
  tails: (LrTail | null)[];
}

/**
 * A keyboard search's chance figures (GENETICS.md "Expected chance hits"): the probability that an unrelated profile
 * meets the stringency with the typed profile, per population, and each listed result's p-value from the
 * unrelated-profile LR distribution of its analysis and population (computed once per pair). Run on a search worker:
 * the distributions are convolutions over every marker's genotypes.
 */
export function keyboardChance(input: KeyboardChanceInput): KeyboardChance {
  const { kind, query } = input;
  const probabilities = input.populations.map((p) => (kind === 'Autosomal' ? stringencyMatchProbability(input.stringency, query, p, input.options).probability : 0));
  const analysisById = new Map(input.analyses.map((a) => [a.id, a]));
  const populationById = new Map(input.populations.map((p) => [p.id, p]));
  const distributions = new Map<string, LrDistribution>();
  const tails = input.asked.map(({ analysisId, populationId, combinedIndex }) => {
    const analysis = analysisById.get(analysisId);
    const population = populationId === null ? undefined : populationById.get(populationId);
    if (!analysis || !population || combinedIndex === null || analysis.kind !== 'Computational' || kind !== 'Autosomal' || analysis.roles.length !== 2) return null;
    const key = `${analysisId}:${populationId}`;
    if (!distributions.has(key)) distributions.set(key, unrelatedDistribution(analysis, query, 0, population, { step: CHANCE_GRID_STEP }));
    return distributions.get(key)!.tail(combinedIndex > 0 ? Math.log10(combinedIndex) : -Infinity);
  });
  return { probabilities, tails };
}
