/**
 * A keyboard search's chance figures (issue 29): computed on a search worker beside the scan, so they cannot wait for
 * the listed results. The worker answers every p-value-bearing analysis's distribution per population as plain grid
 * data, and the p-values read from it afterwards are those of the distribution computed in place.
 */
import { describe, expect, it } from 'vitest';
import { fbi2015Population, profileGenerator } from '../../../../bench/synthetic-profiles';
import { SEED_ANALYSIS_GROUPS } from '../../../../server/genetics/seed-analyses';
import { stringencyMatchProbability, unrelatedDistribution } from '../../../../server/matching/chance-distribution';
import { keyboardChance, keyboardTails } from '../../../../server/matching/keyboard-chance';
import { CHANCE_GRID_STEP } from '../../../../server/matching/rule-match';
import type { MatchAnalysis, MatchPopulation } from '../../../../server/matching/types';

const seeds = SEED_ANALYSIS_GROUPS.flatMap((g) => g.analyses);
const analysis = (name: string): MatchAnalysis => {
  const a = seeds.find((s) => s.name === name)!;
  return { id: name, kind: a.kind as MatchAnalysis['kind'], profileKind: a.profileKind, roles: a.roles, threshold: a.threshold, formulae: a.formulae, constants: Object.fromEntries(a.constants.map((c) => [c.name, c.value])) };
};
const populations: MatchPopulation[] = ['Caucasian', 'Filipino'].map((name) => ({ id: name, kind: 'Autosomal', frequencies: fbi2015Population(name), haplotypes: [] }));
const query = profileGenerator(populations[0]!.frequencies, 11)();
const options = { minMarkers: 8, maxMismatches: 0 };
const exclusion = seeds.find((s) => s.kind === 'Exclusion' && s.profileKind === 'Autosomal' && s.roles.length === 2);

describe('keyboard chance figures', () => {
  const analyses = [analysis('Identity'), analysis('Full siblings'), ...(exclusion ? [analysis(exclusion.name)] : [])];
  const chance = keyboardChance({ kind: 'Autosomal', query, stringency: 'moderate', options, populations, analyses });
  // What crosses from the worker to the request thread.
  const sent = structuredClone(chance);

  it('gives the stringency probability per population and a distribution per computational analysis and population', () => {
    expect(sent.probabilities).toEqual(populations.map((p) => stringencyMatchProbability('moderate', query, p, options).probability));
    expect(sent.distributions.map((d) => `${d.analysisId} in ${d.populationId}`)).toEqual(['Identity in Caucasian', 'Identity in Filipino', 'Full siblings in Caucasian', 'Full siblings in Filipino']);
  });

  it('reads each listed result its p-value from the sent distributions, the same as the distribution computed in place', () => {
    const asked = [
      { analysisId: 'Full siblings', populationId: 'Filipino', combinedIndex: 1234.5 },
      { analysisId: 'Identity', populationId: 'Caucasian', combinedIndex: 1e18 },
      { analysisId: 'Full siblings', populationId: 'Caucasian', combinedIndex: 0 },
      { analysisId: 'Identity', populationId: null, combinedIndex: 10 },
      { analysisId: 'Identity', populationId: 'Filipino', combinedIndex: null },
      ...(exclusion ? [{ analysisId: exclusion.name, populationId: 'Caucasian', combinedIndex: 3 }] : []),
    ];
    const direct = (name: string, population: number, lr: number) => unrelatedDistribution(analysis(name), query, 0, populations[population]!, { step: CHANCE_GRID_STEP }).tail(lr > 0 ? Math.log10(lr) : -Infinity);
    const tails = keyboardTails(sent, asked);
    expect(tails.slice(0, 3)).toEqual([direct('Full siblings', 1, 1234.5), direct('Identity', 0, 1e18), direct('Full siblings', 0, 0)]);
    // No population, no LR, or an exclusion analysis: no p-value.
    expect(tails.slice(3)).toEqual(asked.slice(3).map(() => null));
    expect(tails[1]!.upper).toBeLessThan(1e-10);
    // LR 0 asks P(LR ≥ 0): all the mass (the markers' genotype probabilities multiplied, 1 to rounding).
    expect(tails[2]!.lower).toBeCloseTo(1, 12);
    expect(tails[2]!.upper).toBe(tails[2]!.lower);
  });
});
