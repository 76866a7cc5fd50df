import type { EngineProfile, PopulationFrequencies } from '../types';
import { alignProfiles } from './aligned-markers';
import { frequencyLookup } from './allele-frequency';
import { combineIndices, type CombinedIndex } from './combined-index';

/**
 * Match probability of a single-source genotype given one allele frequency (homozygote) or two
 * (heterozygote), with coancestry θ (NRC II 1996 rec. 4.10, Balding & Nichols 1994); θ = 0 gives p² and 2pq.
 */
export function matchProbability(frequencies: readonly [number] | readonly [number, number], theta: number): number {
  const denominator = (1 + theta) * (1 + 2 * theta);
  const [p, q] = frequencies;
  if (q === undefined) return ((2 * theta + (1 - theta) * p) * (3 * theta + (1 - theta) * p)) / denominator;
  return (2 * (theta + (1 - theta) * p) * (theta + (1 - theta) * q)) / denominator;
}

/**
 * Identity (same source) LR of two profiles across their shared markers (NRC II 1996 rec. 4.10,
 * Balding & Nichols 1994): 1/match probability at each marker where the genotypes agree, 0 where they
 * differ, combined in log space; markers missing from either profile, with lab markings, or not in the population are skipped.
 */
export function identityLikelihoodRatio(
  evidence: EngineProfile,
  reference: EngineProfile,
  population: PopulationFrequencies,
  theta: number,
): CombinedIndex {
  const { compared, skipped } = alignProfiles([evidence, reference], { maxAlleles: 2, population });
  const values = compared.map(({ marker, genotypes: [a, b] }) => {
    if (a!.join('/') !== b!.join('/')) return { marker, value: 0 };
    const freq = frequencyLookup(population, marker);
    const ps = a!.map(freq) as [number] | [number, number];
    return { marker, value: 1 / matchProbability(ps, theta) };
  });
  return combineIndices(values, skipped);
}
