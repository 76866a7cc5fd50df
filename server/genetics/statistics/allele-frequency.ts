import type { PopulationFrequencies } from '../types';

/** NRC II's floor for a rare or unseen allele: 5/(2N), N the number of people typed at the marker. */
const NRC_II_NUMERATOR = 5;

/**
 * The frequency the engine uses for an allele (NRC II 1996 rec. 4.10, minimum allele frequency):
 * the population's observed frequency, raised to the minimum 5/(2N) when the allele is absent or
 * rarer, N being the marker's sample size in individuals; without N, the population's configured minimum.
 */
export function alleleFrequency(population: PopulationFrequencies, marker: string, allele: string): number {
  const freqs = population.markers.get(marker);
  const observed = freqs?.frequencies.get(allele) ?? 0;
  const n = freqs?.sampleSize ?? null;
  const minimum = n !== null && n > 0 ? NRC_II_NUMERATOR / (2 * n) : population.minimumAlleleFrequency;
  return Math.max(observed, minimum);
}

/** A frequency lookup bound to one population and marker, the shape every per-locus formula takes. */
export type FrequencyOf = (allele: string) => number;

/** alleleFrequency for one marker of a population (NRC II 1996 rec. 4.10). */
export function frequencyLookup(population: PopulationFrequencies, marker: string): FrequencyOf {
  return (allele) => alleleFrequency(population, marker, allele);
}
