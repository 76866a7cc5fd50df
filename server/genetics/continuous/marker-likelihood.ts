import type { GammaParameters } from './continuous-types';
import type { EvidenceMarker } from './evidence-marker';
import { logGammaDensity, logLowerGammaRatio } from './gamma-functions';
import { genotypeList, type HypothesisMarker } from './hypothesis-marker';

// What one contributor puts at a position: copies of the allele there, of the allele one repeat above (its
// backward stutter falls here) and of the one below (forward). A genotype has two alleles, so at most 10
// combinations (EuroForMix's compact outcome); a position's key is these digits over contributors, base 10.
const DIGIT = new Int8Array(27).fill(-1);
export const DIGIT_COPIES: [number, number, number][] = [];
for (let own = 0; own <= 2; own++)
  for (let above = 0; above <= 2 - own; above++)
    for (let below = 0; below <= 2 - own - above; below++) {
      DIGIT[own + 3 * above + 9 * below] = DIGIT_COPIES.length;
      DIGIT_COPIES.push([own, above, below]);
    }
export const RADIX = DIGIT_COPIES.length;

/** digit[g × P + p]: what genotype g puts at position p (a DIGIT_COPIES index). */
export function genotypeDigits(evidence: EvidenceMarker, genotypes: readonly [number, number][]): Int32Array {
  const positionCount = evidence.positions.length;
  const digit = new Int32Array(genotypes.length * positionCount);
  genotypes.forEach(([a, b], g) => {
    for (let p = 0; p < positionCount; p++) {
      const copies = (i: number) => (i < 0 ? 0 : (a === i ? 1 : 0) + (b === i ? 1 : 0));
      const above = evidence.backwardFrom[p]!;
      const below = evidence.forwardFrom[p]!;
      // Q does not stutter (EuroForMix: the drop-out allele gives no stutter).
      const stutters = (i: number) => (i >= 0 && evidence.givesStutter[i] ? copies(i) : 0);
      digit[g * positionCount + p] = DIGIT[(p < evidence.alleleCount ? copies(p) : 0) + 3 * stutters(above) + 9 * stutters(below)]!;
    }
  });
  return digit;
}

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

/** The Balding–Nichols probability of drawing allele a given the copies drawn before (Balding & Nichols 1994; EuroForMix `prob_a`). */
export function drawProbability(p: number, copies: number, total: number, theta: number): number {
  return (copies * theta + (1 - theta) * p) / (1 + (total - 1) * theta);
}

/**
 * The log-likelihood of one marker under one hypothesis at given parameters (Bleka, Storvik & Gill 2016; EuroForMix
 * 4.2.4 `EFMfastengine.cpp`): the exact sum over the unknowns' genotypes, in double precision, of the genotypes'
 * Balding–Nichols probability × drop-in terms × per position the gamma density of each seen height or P(Y < AT).
 */
export function markerLogLikelihood(evidence: EvidenceMarker, hypothesis: HypothesisMarker, parameters: GammaParameters, scratch: LikelihoodScratch, tally?: GenotypeTally): number {
  const { alleleCount, positions, peaks, seenIn, dropInWeights, frequencies, analyticalThreshold: at } = evidence;
  const positionCount = positions.length;
  const genotypes = genotypeList(alleleCount);
  const contributors = hypothesis.genotypes.length;
  const tableSize = RADIX ** contributors;
  const power = Array.from({ length: contributors }, (_, k) => RADIX ** k);
  const digit = genotypeDigits(evidence, genotypes);
  const base = new Int32Array(positionCount);
  const unknowns: number[] = [];
  hypothesis.genotypes.forEach((g, k) => {
    if (g < 0) unknowns.push(k);
    else for (let p = 0; p < positionCount; p++) base[p]! += digit[g * positionCount + p]! * power[k]!;
  });

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
  const { theta } = evidence;
  const counts = Float64Array.from(hypothesis.typedCounts);
  let total = hypothesis.typedTotal;
  const keys = Array.from({ length: unknowns.length + 1 }, () => new Int32Array(positionCount));
  keys[0]!.set(base);
  const chosen = new Int32Array(unknowns.length);
  let max = -Infinity;
  let sum = 0;

  const leaf = (logPrior: number) => {
    const key = keys[unknowns.length]!;
    let w = logPrior;
    for (let p = 0; p < positionCount; p++) if (key[p] !== 0) w += weight(p, key[p]!);
    for (let r = 0; r < replicates; r++) {
      let dropIns = 0;
      let any = false;
      for (const i of seenIn[r]!) {
        if (key[i] === 0) {
          dropIns += dropInWeights[r]![i]!;
          any = true;
        }
      }
      w += any ? dropIns : noDropIn;
    }
    if (tally) {
      const share = Math.exp(w - tally.logTotal);
      for (let j = 0; j < unknowns.length; j++) tally.posterior[unknowns[j]!]![chosen[j]!]! += share;
      return;
    }
    if (w === -Infinity) return;
    if (w > max) {
      sum = sum * Math.exp(max - w) + 1;
      max = w;
    } else sum += Math.exp(w - max);
  };

  const visit = (depth: number, logPrior: number) => {
    if (depth === unknowns.length) return leaf(logPrior);
    const step = power[unknowns[depth]!]!;
    const from = keys[depth]!;
    const to = keys[depth + 1]!;
    for (let g = 0; g < genotypes.length; g++) {
      const [a, b] = genotypes[g]!;
      const first = drawProbability(frequencies[a]!, counts[a]!, total, theta);
      const probability = a === b ? first * drawProbability(frequencies[a]!, counts[a]! + 1, total + 1, theta) : first * 2 * drawProbability(frequencies[b]!, counts[b]!, total + 1, theta);
      for (let p = 0; p < positionCount; p++) to[p] = from[p]! + digit[g * positionCount + p]! * step;
      counts[a]! += 1;
      counts[b]! += 1;
      total += 2;
      chosen[depth] = g;
      visit(depth + 1, logPrior + Math.log(probability));
      counts[a]! -= 1;
      counts[b]! -= 1;
      total -= 2;
    }
  };
  visit(0, 0);
  return max === -Infinity ? -Infinity : max + Math.log(sum);
}
