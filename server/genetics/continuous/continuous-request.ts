import type { PopulationFrequencies } from '../types';
import type { ContinuousCase } from './continuous-lr';
import type { GammaParameters, ModelSwitches, Peak, TypedPerson } from './continuous-types';

/**
 * A continuous LR as plain data (structured-cloneable, so it crosses to a worker thread): what ContinuousCase
 * holds, with the threshold and size lookups written as tables.
 */
export interface ContinuousRequest {
  contributors: number;
  replicates: { marker: string; peaks: Peak[] }[][];
  personOfInterest: TypedPerson;
  knownContributors: TypedPerson[];
  knownNonContributors: TypedPerson[];
  personOfInterestTypedUnderHd: boolean;
  population: PopulationFrequencies;
  populationId: string | null;
  normalizeFrequencies: boolean;
  analyticalThreshold: number;
  markerThresholds: Map<string, number>;
  dropIn: number;
  dropInLambda: number;
  theta: number;
  model: ModelSwitches;
  fragmentSizes: Map<string, { alleles: Map<string, number>; longest: number | undefined }>;
  parameters: { mode: 'fixed'; hp: GammaParameters; hd: GammaParameters } | { mode: 'fit'; starts: number; seed: number };
  deconvolution: boolean;
  /** A number-of-contributors search to run besides (contributor counts from..to, each model). */
  contributorSearch: { from: number; to: number; models: ModelSwitches[] } | null;
}

/**
 * The case a request describes. An allele's size: the sizes table, else the size its peak carries (the first
 * replicate that gives one); Q's: the marker's longest fragment from the table.
 */
export function continuousCase(request: ContinuousRequest): ContinuousCase {
  const replicates = request.replicates.map((markers) => new Map(markers.map((m) => [m.marker, m.peaks])));
  const peakSize = (marker: string, allele: string) => {
    for (const replicate of replicates) {
      const size = replicate.get(marker)?.find((p) => p.allele === allele)?.size;
      if (size !== undefined) return size;
    }
    return undefined;
  };
  return {
    evidence: {
      replicates,
      population: request.population,
      normalizeFrequencies: request.normalizeFrequencies,
      analyticalThreshold: (marker) => request.markerThresholds.get(marker) ?? request.analyticalThreshold,
      dropIn: request.dropIn,
      dropInLambda: request.dropInLambda,
      theta: request.theta,
      model: request.model,
      fragmentSize: (marker, allele) => request.fragmentSizes.get(marker)?.alleles.get(allele) ?? peakSize(marker, allele),
      qAlleleSize: (marker) => request.fragmentSizes.get(marker)?.longest,
    },
    contributors: request.contributors,
    personOfInterest: request.personOfInterest,
    knownContributors: request.knownContributors,
    knownNonContributors: request.knownNonContributors,
    personOfInterestTypedUnderHd: request.personOfInterestTypedUnderHd,
    parameters: request.parameters,
    deconvolution: request.deconvolution,
    analyticalThreshold: request.analyticalThreshold,
    population: { id: request.populationId, name: request.population.name, minimumAlleleFrequency: request.population.minimumAlleleFrequency },
  };
}
