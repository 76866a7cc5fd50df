import type { GammaParameters } from './continuous-types';
import type { EvidenceMarker } from './evidence-marker';
import { logGammaDensity, logLowerGammaRatio } from './gamma-functions';
import type { HypothesisMarker } from './hypothesis-marker';
import { DIGIT_COPIES, dropInTerm, RADIX, walkJointGenotypes } from './joint-genotypes';

/** Reused buffers of the per-position weight tables (a fit evaluates thousands of times). */
export class LikelihoodScratch {
  weights = new Float64Array(0);
  stamps = new Int32Array(0);
  generation = 0;
  table(size: number): void {
    if (this.weights.length < size) {
      this.weights = new Float64Array(size);
      this.stamps = new Int32Array(size);
      this.generation = 0;
    }
    this.generation++;
  }
}

/** Posterior weights of each unknown's genotypes, filled when asked (deconvolution), relative to `logTotal`. */
export interface GenotypeTally {
  logTotal: number;
  /** [contributor][genotype index]; null for a contributor typed at this marker. */
  posterior: (Float64Array | null)[];
}

/**
 * The log-likelihood of one marker under one hypothesis at given parameters (Bleka, Storvik & Gill 2016; EuroForMix
 * 4.2.4 `EFMfastengine.cpp`): the exact sum over the unknowns' genotypes, in double precision, of the genotypes'
 * Balding–Nichols probability × drop-in terms × per position the gamma density of each seen height or P(Y < AT).
 */
export function markerLogLikelihood(evidence: EvidenceMarker, hypothesis: HypothesisMarker, parameters: GammaParameters, scratch: LikelihoodScratch, tally?: GenotypeTally): number {
  const { alleleCount, positions, peaks, analyticalThreshold: at } = evidence;
  const positionCount = positions.length;
  const contributors = hypothesis.genotypes.length;
  const tableSize = RADIX ** contributors;

  // The parameters as EuroForMix uses them: shape 1/σ², scale μσ²; a degraded allele's share × β^size.
  const shape0 = 1 / (parameters.sigma * parameters.sigma);
  const scale = parameters.mu / shape0;
  const logBeta = Math.log(parameters.beta);
  const { xiB, xiF, mx } = parameters;
  const degraded = Float64Array.from(evidence.scaledSizes, (s) => shape0 * Math.exp(s * logBeta));
  const logDropOut = (shape: number) => logLowerGammaRatio(shape, at / scale);
  const replicates = peaks.length;

  scratch.table(positionCount * tableSize);
  const { weights, stamps, generation } = scratch;
  const weight = (p: number, key: number): number => {
    const slot = p * tableSize + key;
    if (stamps[slot] === generation) return weights[slot]!;
    let own = 0;
    let above = 0;
    let below = 0;
    for (let k = 0, rest = key; k < contributors; k++, rest = Math.floor(rest / RADIX)) {
      const [o, a, b] = DIGIT_COPIES[rest % RADIX]!;
      own += o * mx[k]!;
      above += a * mx[k]!;
      below += b * mx[k]!;
    }
    let shape = 0;
    if (p < alleleCount) shape = own * degraded[p]! * (evidence.givesStutter[p] ? 1 - xiB - xiF : 1);
    if (evidence.backwardFrom[p]! >= 0) shape += xiB * (above * degraded[evidence.backwardFrom[p]!]!);
    if (evidence.forwardFrom[p]! >= 0) shape += xiF * (below * degraded[evidence.forwardFrom[p]!]!);
    let w = 0;
    if (p >= evidence.seenCount) w = replicates * logDropOut(shape);
    else for (let r = 0; r < replicates; r++) {
      const y = peaks[r]![p]!;
      w += y < at ? logDropOut(shape) : logGammaDensity(y, shape, scale);
    }
    stamps[slot] = generation;
    weights[slot] = w;
    return w;
  };

  const noDropIn = Math.log(1 - evidence.dropIn);
  let max = -Infinity;
  let sum = 0;
  walkJointGenotypes(evidence, hypothesis, (key, logPrior, chosen) => {
    let w = logPrior;
    for (let p = 0; p < positionCount; p++) if (key[p] !== 0) w += weight(p, key[p]!);
    w += dropInTerm(evidence, key, noDropIn);
    if (tally) {
      const share = Math.exp(w - tally.logTotal);
      for (let j = 0, k = 0; k < contributors; k++) if (hypothesis.genotypes[k]! < 0) tally.posterior[k]![chosen[j++]!]! += share;
      return;
    }
    if (w === -Infinity) return;
    if (w > max) {
      sum = sum * Math.exp(max - w) + 1;
      max = w;
    } else sum += Math.exp(w - max);
  });
  return max === -Infinity ? -Infinity : max + Math.log(sum);
}
