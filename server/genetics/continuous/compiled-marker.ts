import type { GammaParameters } from './continuous-types';
import type { EvidenceMarker } from './evidence-marker';
import { genotypeList, type HypothesisMarker } from './hypothesis-marker';
import { peakSums, slotFactors, slotLogWeight, slotShape, type PeakSums } from './slot-weight';
import { DIGIT_COPIES, dropInTerm, RADIX, walkJointGenotypes } from './joint-genotypes';

/** Most (joint genotype × position) entries a compiled marker keeps (16 MB of indices); beyond it the sum is walked each time. */
export const MAX_COMPILED_ENTRIES = 4_000_000;

/**
 * One marker under one hypothesis with everything that does not depend on the fitted parameters worked out once
 * per fit: the distinct (position, copy pattern) slots whose gamma weight an evaluation needs, and per joint
 * genotype of the unknowns its prior × drop-in constant and the slots it sums. An evaluation then computes each
 * slot's weight once (one log Γ for all replicates) and sums by lookup, with no allocation.
 */
export interface CompiledMarker extends PeakSums {
  evidence: EvidenceMarker;
  contributors: number;
  /** Per slot: the position, and per contributor its copies there (own, above, below): [slot × contributors × 3]. */
  slotPosition: Int32Array;
  slotCopies: Float64Array;
  /** Per joint genotype: log prior + drop-in terms, and its slots as leafSlots[leafOffsets[i] .. leafOffsets[i + 1]). */
  leafConstant: Float64Array;
  leafOffsets: Int32Array;
  leafSlots: Int32Array;
  /** Buffers of one evaluation (the last one's values: validation reads them). */
  slotShape: Float64Array;
  slotWeight: Float64Array;
  leafWeight: Float64Array;
}

/** Compiles a marker (the same sum as markerLogLikelihood, EuroForMix `EFMfastengine.cpp`); null when it would exceed MAX_COMPILED_ENTRIES. */
export function compileMarker(evidence: EvidenceMarker, hypothesis: HypothesisMarker): CompiledMarker | null {
  const { alleleCount, positions } = evidence;
  const positionCount = positions.length;
  const contributors = hypothesis.genotypes.length;
  const unknowns = hypothesis.genotypes.filter((g) => g < 0).length;
  if (genotypeList(alleleCount).length ** unknowns * positionCount > MAX_COMPILED_ENTRIES) return null;
  const tableSize = RADIX ** contributors;
  const slotOf = new Map<number, number>();
  const slotPosition: number[] = [];
  const slotCopies: number[] = [];
  const slot = (p: number, key: number): number => {
    let s = slotOf.get(p * tableSize + key);
    if (s !== undefined) return s;
    s = slotPosition.length;
    slotOf.set(p * tableSize + key, s);
    slotPosition.push(p);
    for (let k = 0, rest = key; k < contributors; k++, rest = Math.floor(rest / RADIX)) slotCopies.push(...DIGIT_COPIES[rest % RADIX]!);
    return s;
  };
  const noDropIn = Math.log(1 - evidence.dropIn);
  const leafConstant: number[] = [];
  const leafOffsets: number[] = [0];
  const leafSlots: number[] = [];
  walkJointGenotypes(evidence, hypothesis, (key, logPrior) => {
    const constant = logPrior + dropInTerm(evidence, key, noDropIn);
    // A joint genotype of likelihood 0 whatever the parameters (an unexplained peak without drop-in) adds nothing.
    if (constant === -Infinity) return;
    for (let p = 0; p < positionCount; p++) if (key[p] !== 0) leafSlots.push(slot(p, key[p]!));
    leafConstant.push(constant);
    leafOffsets.push(leafSlots.length);
  });

  return {
    evidence,
    contributors,
    slotPosition: Int32Array.from(slotPosition),
    slotCopies: Float64Array.from(slotCopies),
    leafConstant: Float64Array.from(leafConstant),
    leafOffsets: Int32Array.from(leafOffsets),
    leafSlots: Int32Array.from(leafSlots),
    ...peakSums(evidence),
    slotShape: new Float64Array(slotPosition.length),
    slotWeight: new Float64Array(slotPosition.length),
    leafWeight: new Float64Array(leafConstant.length),
  };
}

/**
 * The marker's log-likelihood at `parameters` from its compilation (Bleka, Storvik & Gill 2016; EuroForMix 4.2.4):
 * per slot the gamma log-density of its peaks (shape share × μ/σ²-scaled, one log Γ for all replicates) or
 * P(Y < AT); per joint genotype the constant plus its slots; the log of the sum of their exponentials.
 */
export function compiledLogLikelihood(m: CompiledMarker, parameters: GammaParameters): number {
  const slotWeight = m.slotWeight;
  compiledSlotWeights(m, parameters, slotWeight, m.slotShape);
  const { leafConstant, leafOffsets, leafSlots, leafWeight } = m;
  let max = -Infinity;
  for (let i = 0; i < leafConstant.length; i++) {
    let w = leafConstant[i]!;
    for (let j = leafOffsets[i]!, end = leafOffsets[i + 1]!; j < end; j++) w += slotWeight[leafSlots[j]!]!;
    leafWeight[i] = w;
    if (w > max) max = w;
  }
  if (max === -Infinity) return -Infinity;
  let sum = 0;
  for (let i = 0; i < leafWeight.length; i++) sum += Math.exp(leafWeight[i]! - max);
  return max + Math.log(sum);
}

/** Each slot's weight at `parameters` into `weights` (and its gamma shape into `shapes` when given). */
export function compiledSlotWeights(m: CompiledMarker, parameters: GammaParameters, weights: Float64Array, shapes?: Float64Array): void {
  const e = m.evidence;
  const f = slotFactors(parameters);
  const { mx } = parameters;
  const K = m.contributors;
  const { slotPosition, slotCopies } = m;
  for (let s = 0; s < slotPosition.length; s++) {
    const p = slotPosition[s]!;
    let own = 0;
    let above = 0;
    let below = 0;
    for (let k = 0, c = s * K * 3; k < K; k++, c += 3) {
      own += slotCopies[c]! * mx[k]!;
      above += slotCopies[c + 1]! * mx[k]!;
      below += slotCopies[c + 2]! * mx[k]!;
    }
    const shape = slotShape(e, f, p, own, above, below);
    if (shapes) shapes[s] = shape;
    weights[s] = slotLogWeight(e, m, f, p, shape);
  }
}

/**
 * Each slot's share of the likelihood last evaluated (whose log is `logLikelihood`): the sum over the joint genotypes
 * that use it of their posterior probability, ∂ log L / ∂ the slot's weight.
 */
export function compiledSlotUsage(m: CompiledMarker, logLikelihood: number, usage: Float64Array): void {
  usage.fill(0);
  const { leafOffsets, leafSlots, leafWeight } = m;
  for (let i = 0; i < leafWeight.length; i++) {
    const share = Math.exp(leafWeight[i]! - logLikelihood);
    if (share === 0) continue;
    for (let j = leafOffsets[i]!, end = leafOffsets[i + 1]!; j < end; j++) usage[leafSlots[j]!]! += share;
  }
}
