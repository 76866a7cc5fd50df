import type { ContinuousEvidence, ModelSwitches, Peak, ReplicatePeaks, TypedPerson } from '../../../../../server/genetics/continuous/continuous-types';
import type { PopulationFrequencies } from '../../../../../server/genetics/types';

/** Frequencies per marker written out (no sample size: the minimum 0.001 applies to absent alleles). */
export function population(markers: Record<string, Record<string, number>>): PopulationFrequencies {
  return {
    name: 'test',
    minimumAlleleFrequency: 0.001,
    markers: new Map(Object.entries(markers).map(([m, f]) => [m, { frequencies: new Map(Object.entries(f)), sampleSize: null }])),
  };
}

/** A replicate from { marker: { allele: height } }. */
export function replicate(markers: Record<string, Record<string, number>>): ReplicatePeaks {
  return new Map(Object.entries(markers).map(([m, peaks]) => [m, Object.entries(peaks).map(([allele, height]): Peak => ({ allele, height }))]));
}

export function person(markers: Record<string, string[]>): TypedPerson {
  return new Map(Object.entries(markers));
}

export const NO_MODEL: ModelSwitches = { degradation: false, backwardStutter: false, forwardStutter: false };

/** Evidence with EuroForMix's usual settings unless overridden: AT 50, drop-in 0.05 with λ 0.01, θ 0, no normalisation. */
export function evidence(replicates: ReplicatePeaks[], frequencies: PopulationFrequencies, over: Partial<ContinuousEvidence> = {}): ContinuousEvidence {
  return {
    replicates,
    population: frequencies,
    normalizeFrequencies: false,
    analyticalThreshold: () => 50,
    dropIn: 0.05,
    dropInLambda: 0.01,
    theta: 0,
    model: NO_MODEL,
    fragmentSize: () => undefined,
    qAlleleSize: () => undefined,
    ...over,
  };
}
