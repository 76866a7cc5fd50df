import type { HypothesisModel, LogLikelihood } from './continuous-likelihood';
import type { GammaParameters } from './continuous-types';
import { genotypeList } from './hypothesis-marker';
import { LikelihoodScratch, markerLogLikelihood } from './marker-likelihood';

/** Genotypes listed per contributor and marker. */
const TOP = 5;

export interface GenotypePosterior {
  contributor: number;
  marker: string;
  genotypes: { alleles: string[]; probability: number }[];
}

/**
 * Deconvolution (EuroForMix `deconvolve`, `calcMargDC`): per unknown contributor and marker, the posterior
 * probability of each genotype at the given parameters — its share of the marker's likelihood — the most probable first.
 */
export function deconvolve(model: HypothesisModel, parameters: GammaParameters, likelihood: LogLikelihood): GenotypePosterior[] {
  const scratch = new LikelihoodScratch();
  return model.evidence.markers.flatMap((evidence, i) => {
    const logTotal = likelihood.perMarker[i]!;
    if (!Number.isFinite(logTotal)) return [];
    const genotypes = genotypeList(evidence.alleleCount);
    const hypothesis = model.markers[i]!;
    const posterior = Array.from(hypothesis.genotypes, (g) => (g < 0 ? new Float64Array(genotypes.length) : null));
    markerLogLikelihood(evidence, hypothesis, parameters, scratch, { logTotal, posterior });
    return posterior.flatMap((weights, contributor) => {
      if (!weights) return [];
      const ranked = genotypes
        .map(([a, b], g) => ({ alleles: [evidence.positions[a]!, evidence.positions[b]!], probability: weights[g]! }))
        .sort((x, y) => y.probability - x.probability)
        .slice(0, TOP);
      return [{ contributor, marker: evidence.marker, genotypes: ranked }];
    });
  });
}
