import { distributionOnGrid, type DistributionGrid, type LrTail } from '../genetics/statistics';
import type { Genotype } from '../genetics/types';
import { stringencyMatchProbability, unrelatedDistribution } from './chance-distribution';
import { CHANCE_GRID_STEP } from './rule-match';
import type { IdentityOptions, MatchAnalysis, MatchPopulation, ProfileKind, Stringency } from './types';

/** What a keyboard search's chance figures need: the typed profile, its stringency, its populations and analyses. */
export interface KeyboardChanceInput {
  kind: ProfileKind;
  query: ReadonlyMap<string, Genotype>;
  stringency: Stringency;
  options: Pick<IdentityOptions, 'minMarkers' | 'maxMismatches'>;
  populations: readonly MatchPopulation[];
  analyses: readonly MatchAnalysis[];
}

/**
 * The chance figures: per population (the input's order) the stringency's match probability, and per analysis and
 * population that a result can have a p-value for, the unrelated-profile LR distribution as plain grid data (it
 * crosses threads).
 */
export interface KeyboardChance {
  probabilities: number[];
  distributions: { analysisId: string; populationId: string; grid: DistributionGrid }[];
}

/** An analysis whose results get a p-value: a computational two-role analysis over autosomal profiles. */
const hasPValue = (analysis: MatchAnalysis, kind: ProfileKind) => analysis.kind === 'Computational' && kind === 'Autosomal' && analysis.roles.length === 2;

/**
 * A keyboard search's chance figures (GENETICS.md "Expected chance hits"): the probability that an unrelated profile
 * meets the stringency with the typed profile, per population, and the unrelated-profile LR distribution of each
 * computational analysis in each population (one convolution over every marker's genotypes per pair). Run on a search
 * worker while another scans: neither needs the other's result, so the search waits for the longer of the two, not
 * their sum (issue 29). A pair's distribution is computed whether or not a result of it is listed; its cost is one per
 * pair, never one per candidate.
 */
export function keyboardChance(input: KeyboardChanceInput): KeyboardChance {
  const { kind, query } = input;
  const probabilities = input.populations.map((p) => (kind === 'Autosomal' ? stringencyMatchProbability(input.stringency, query, p, input.options).probability : 0));
  const distributions = input.analyses
    .filter((analysis) => hasPValue(analysis, kind))
    .flatMap((analysis) =>
      input.populations.map((population) => ({
        analysisId: analysis.id,
        populationId: population.id,
        grid: unrelatedDistribution(analysis, query, 0, population, { step: CHANCE_GRID_STEP }).grid,
      })),
    );
  return { probabilities, distributions };
}

/** Each asked result's p-value bracket (null where none applies), in the order asked, read from the chance figures' distributions. */
export function keyboardTails(chance: KeyboardChance, asked: readonly { analysisId: string; populationId: string | null; combinedIndex: number | null }[]): (LrTail | null)[] {
  const byPair = new Map(chance.distributions.map((d) => [`${d.analysisId}:${d.populationId}`, d.grid]));
  const rebuilt = new Map<string, ReturnType<typeof distributionOnGrid>>();
  return asked.map(({ analysisId, populationId, combinedIndex }) => {
    const key = `${analysisId}:${populationId}`;
    const grid = populationId === null || combinedIndex === null ? undefined : byPair.get(key);
    if (!grid) return null;
    if (!rebuilt.has(key)) rebuilt.set(key, distributionOnGrid(grid));
    return rebuilt.get(key)!.tail(combinedIndex! > 0 ? Math.log10(combinedIndex!) : -Infinity);
  });
}
