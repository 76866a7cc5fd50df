import type { GammaParameters } from './continuous-types';
import type { EvidenceMarker } from './evidence-marker';
import { genotypeList, type HypothesisMarker } from './hypothesis-marker';
import { DIGIT_COPIES, genotypeDigits, RADIX } from './joint-genotypes';
import { peakSums, slotFactors, slotLogWeight, slotShape, type PeakSums } from './slot-weight';

// Flat copies of the shared tables: the hot loops read these module locals (an imported binding is a getter once transpiled).
const COPIES = Float64Array.from(DIGIT_COPIES.flat());
const BASE = RADIX;

/** Most (position × copy pattern) weights a nested marker keeps per evaluation (8 bytes and a 4-byte stamp each). */
export const MAX_NESTED_TABLE = 4_000_000;

/**
 * One marker too large to compile, laid out for a sum over the unknowns' genotypes as nested loops (EuroForMix
 * `EFMfastengine.cpp` sums the same terms): each level adds one unknown's copies to the positions its genotype
 * touches, so the innermost loop (the last unknown, most of the work) reads the weights of only those positions
 * and sums the others once per outer genotype. Nothing is pruned but terms that are exactly zero.
 */
/** Asks nestedLogLikelihood for each slot's share of the likelihood (∂ log L / ∂ its weight), given log L at the same parameters. */
export interface NestedUsage {
  logLikelihood: number;
  /** Indexed as weights (position × RADIX^contributors + key); zeroed by the caller. */
  slots: Float64Array;
}

export interface NestedMarker extends PeakSums {
  evidence: EvidenceMarker;
  contributors: number;
  /** Genotype alleles (a ≤ b) per genotype index. */
  first: Int32Array;
  second: Int32Array;
  /** Per genotype the positions it puts copies at and what it puts (a DIGIT_COPIES index): [touchedOffsets[g] .. touchedOffsets[g + 1]). */
  touchedOffsets: Int32Array;
  touchedPositions: Int32Array;
  touchedDigits: Int32Array;
  /** Per genotype the seen positions it puts any copy at, as bits. */
  touchedSeen: Int32Array;
  /** Per replicate its seen positions, as bits. */
  seenBits: Int32Array;
  /** Every (position, key) the joint genotypes reach: weights[slotIndex[i]] is computed for each per evaluation. */
  slotIndex: Int32Array;
  /** digit[g × P + p] as genotypeDigits. */
  digits: Int32Array;
  /** RADIX^k of each unknown k, in the order summed: the lowest digit innermost, so its weights lie side by side (the joint prior is exchangeable: any order sums the same). */
  steps: Int32Array;
  /** The typed contributors' key per position. */
  typedKey: Int32Array;
  typedCounts: Float64Array;
  typedTotal: number;
  /** Buffers: a key per level, per (position, key) weight, the innermost level's terms, per allele its draw numerator. */
  keys: Int32Array[];
  weights: Float64Array;
  terms: Float64Array;
  draws: Float64Array;
}

/** Lays a marker out for nestedLogLikelihood; null when it has no unknown, more than 31 seen alleles or its weight table would pass MAX_NESTED_TABLE. */
export function nestMarker(evidence: EvidenceMarker, hypothesis: HypothesisMarker): NestedMarker | null {
  const positionCount = evidence.positions.length;
  const contributors = hypothesis.genotypes.length;
  const unknowns = Array.from(hypothesis.genotypes.keys()).filter((k) => hypothesis.genotypes[k]! < 0);
  const tableSize = positionCount * RADIX ** contributors;
  if (unknowns.length === 0 || tableSize > MAX_NESTED_TABLE || evidence.seenCount > 31) return null;
  const genotypes = genotypeList(evidence.alleleCount);
  const digits = genotypeDigits(evidence, genotypes);
  const touchedOffsets = [0];
  const touchedPositions: number[] = [];
  const touchedDigits: number[] = [];
  genotypes.forEach((_, g) => {
    for (let p = 0; p < positionCount; p++) {
      const d = digits[g * positionCount + p]!;
      if (d !== 0) {
        touchedPositions.push(p);
        touchedDigits.push(d);
      }
    }
    touchedOffsets.push(touchedPositions.length);
  });
  const typedKey = new Int32Array(positionCount);
  hypothesis.genotypes.forEach((g, k) => {
    if (g >= 0) for (let p = 0; p < positionCount; p++) typedKey[p]! += digits[g * positionCount + p]! * RADIX ** k;
  });
  const seenCount = evidence.seenCount;
  const bits = (list: Iterable<number>) => [...list].reduce((b, p) => (p < seenCount ? b | (1 << p) : b), 0);
  // The keys each position reaches: the product over contributors of the digits their genotypes put there.
  const slotIndex: number[] = [];
  for (let p = 0; p < positionCount; p++) {
    let reached = [0];
    hypothesis.genotypes.forEach((typed, k) => {
      const options = new Set(typed >= 0 ? [digits[typed * positionCount + p]!] : genotypes.map((_, g) => digits[g * positionCount + p]!));
      reached = reached.flatMap((key) => [...options].map((d) => key + d * RADIX ** k));
    });
    for (const key of reached) if (key !== 0) slotIndex.push(p * RADIX ** contributors + key);
  }
  return {
    evidence,
    contributors,
    ...peakSums(evidence),
    first: Int32Array.from(genotypes, (g) => g[0]),
    second: Int32Array.from(genotypes, (g) => g[1]),
    touchedOffsets: Int32Array.from(touchedOffsets),
    touchedPositions: Int32Array.from(touchedPositions),
    touchedDigits: Int32Array.from(touchedDigits),
    touchedSeen: Int32Array.from(genotypes, (_, g) => bits(touchedPositions.slice(touchedOffsets[g], touchedOffsets[g + 1]))),
    seenBits: Int32Array.from(evidence.seenIn, (list) => bits(list)),
    slotIndex: Int32Array.from(slotIndex),
    digits,
    steps: Int32Array.from(unknowns, (k) => RADIX ** k).reverse(),
    typedKey,
    typedCounts: Float64Array.from(hypothesis.typedCounts),
    typedTotal: hypothesis.typedTotal,
    keys: Array.from({ length: unknowns.length }, () => new Int32Array(positionCount)),
    weights: new Float64Array(tableSize),
    terms: new Float64Array(genotypes.length),
    draws: new Float64Array(evidence.alleleCount),
  };
}

/**
 * The marker's log-likelihood at `parameters` (Bleka, Storvik & Gill 2016; EuroForMix 4.2.4): the same exact sum
 * over the unknowns' joint genotypes as markerLogLikelihood — Balding–Nichols prior × drop-in terms × per position
 * the gamma density of its peaks or P(Y < AT) — in double precision and log space, by nested loops.
 */
export function nestedLogLikelihood(m: NestedMarker, parameters: GammaParameters, usage?: NestedUsage): number {
  const e = m.evidence;
  const positionCount = e.positions.length;
  const tableSize = BASE ** m.contributors;
  const { weights, keys, steps, digits, first, second, touchedOffsets, touchedPositions, touchedDigits, touchedSeen, seenBits, terms, draws } = m;
  // Every reached (position, key)'s weight first: the loops below only read them.
  nestedSlotWeights(m, parameters, weights);

  const { frequencies, theta, seenCount, dropInWeights } = e;
  const replicates = e.peaks.length;
  const noDropIn = Math.log(1 - e.dropIn);
  const genotypeCount = first.length;
  const alleleCount = e.alleleCount;
  const counts = Float64Array.from(m.typedCounts);
  let total = m.typedTotal;
  // Balding–Nichols: a genotype (a, b) drawn after `total` alleles has probability q_a·q_b′/(d₁d₂) (×2 if a ≠ b) with
  // q_a = copies_a·θ + (1 − θ)p_a, q_b′ the same after a, d₁ = 1 + (total − 1)θ, d₂ = 1 + total·θ (EuroForMix `prob_a`).
  const fillDraws = () => {
    for (let a = 0; a < alleleCount; a++) draws[a] = counts[a]! * theta + (1 - theta) * frequencies[a]!;
  };
  const pairProbability = (g: number) => {
    const a = first[g]!;
    const b = second[g]!;
    return a === b ? draws[a]! * (draws[a]! + theta) : 2 * draws[a]! * draws[b]!;
  };
  const denominator = () => (1 + (total - 1) * theta) * (1 + total * theta);
  const last = steps.length - 1;
  let max = -Infinity;
  let sum = 0;
  const add = (w: number) => {
    if (w === -Infinity) return;
    if (w > max) {
      sum = sum * Math.exp(max - w) + 1;
      max = w;
    } else sum += Math.exp(w - max);
  };
  // The drop-in term of a joint genotype whose seen positions without any copy are `zero` (bits): per replicate the
  // sum of its unexplained peaks' weights, else log(1 − c) (EuroForMix).
  const dropInTerm = (zero: number) => {
    let term = 0;
    for (let r = 0; r < replicates; r++) {
      let unexplained = zero & seenBits[r]!;
      if (unexplained === 0) {
        term += noDropIn;
        continue;
      }
      const dw = dropInWeights[r]!;
      let dropIns = 0;
      while (unexplained !== 0) {
        const p = 31 - Math.clz32(unexplained & -unexplained);
        dropIns += dw[p]!;
        unexplained &= unexplained - 1;
      }
      term += dropIns;
    }
    return term;
  };

  // The innermost unknown over the outer ones' key: their positions' weights summed once; each genotype of the last
  // adds its touched positions' change and its drop-in term; the terms' sum relative to their largest, × prior.
  const innermost = (key: Int32Array, logPrior: number) => {
    let base = 0;
    let zero = 0;
    for (let p = 0; p < positionCount; p++) {
      if (key[p] !== 0) base += weights[p * tableSize + key[p]!]!;
      else if (p < seenCount) zero |= 1 << p;
    }
    const untouched = dropInTerm(zero);
    const step = steps[last]!;
    let top = -Infinity;
    for (let g = 0; g < genotypeCount; g++) {
      let w = base;
      if (base === -Infinity) {
        // A position of weight 0 the last unknown may lift: sum every position of this joint genotype anew.
        w = 0;
        for (let p = 0; p < positionCount; p++) {
          const k = key[p]! + digits[g * positionCount + p]! * step;
          if (k !== 0) w += weights[p * tableSize + k]!;
        }
      } else
        for (let t = touchedOffsets[g]!, end = touchedOffsets[g + 1]!; t < end; t++) {
          const p = touchedPositions[t]!;
          const k = key[p]!;
          const row = p * tableSize;
          w += weights[row + k + touchedDigits[t]! * step]! - (k === 0 ? 0 : weights[row + k]!);
        }
      const filled = zero & touchedSeen[g]!;
      w += filled === 0 ? untouched : dropInTerm(zero & ~filled);
      terms[g] = w;
      if (w > top) top = w;
    }
    if (top === -Infinity) return;
    fillDraws();
    let inner = 0;
    for (let g = 0; g < genotypeCount; g++) inner += pairProbability(g) * Math.exp(terms[g]! - top);
    add(logPrior + top + Math.log(inner / denominator()));
    if (usage) scatter(key, base, Math.exp(logPrior + top - usage.logLikelihood) / denominator(), top);
  };

  // Each joint genotype's posterior share (its term relative to the likelihood `usage` names) onto the slots it sums:
  // the outer key's positions get the whole share less that of the genotypes touching them, which get it instead.
  const scatter = (key: Int32Array, base: number, scale: number, top: number) => {
    const out = usage!.slots;
    const step = steps[last]!;
    let all = 0;
    for (let g = 0; g < genotypeCount; g++) {
      const share = scale * pairProbability(g) * Math.exp(terms[g]! - top);
      if (share === 0) continue;
      all += share;
      if (base === -Infinity) {
        for (let p = 0; p < positionCount; p++) {
          const k = key[p]! + digits[g * positionCount + p]! * step;
          if (k !== 0) out[p * tableSize + k]! += share;
        }
        continue;
      }
      for (let t = touchedOffsets[g]!, end = touchedOffsets[g + 1]!; t < end; t++) {
        const p = touchedPositions[t]!;
        const k = key[p]!;
        out[p * tableSize + k + touchedDigits[t]! * step]! += share;
        if (k !== 0) out[p * tableSize + k]! -= share;
      }
    }
    if (base !== -Infinity) for (let p = 0; p < positionCount; p++) if (key[p] !== 0) out[p * tableSize + key[p]!]! += all;
  };

  const visit = (depth: number, from: Int32Array, logPrior: number) => {
    if (depth === last) return innermost(from, logPrior);
    const to = keys[depth + 1]!;
    const step = steps[depth]!;
    fillDraws();
    const logDenominator = Math.log(denominator());
    for (let g = 0; g < genotypeCount; g++) {
      const pr = Math.log(pairProbability(g)) - logDenominator;
      for (let p = 0; p < positionCount; p++) to[p] = from[p]! + digits[g * positionCount + p]! * step;
      const a = first[g]!;
      const b = second[g]!;
      counts[a]! += 1;
      counts[b]! += 1;
      total += 2;
      visit(depth + 1, to, logPrior + pr);
      counts[a]! -= 1;
      counts[b]! -= 1;
      total -= 2;
      // The levels below drew on `draws`: this level's again.
      fillDraws();
    }
  };
  keys[0]!.set(m.typedKey);
  visit(0, keys[0]!, 0);
  return max === -Infinity ? -Infinity : max + Math.log(sum);
}

/** The weight of every (position, key) the joint genotypes reach at `parameters`, into `weights` at its slot (slotIndex). */
export function nestedSlotWeights(m: NestedMarker, parameters: GammaParameters, weights: Float64Array): void {
  const e = m.evidence;
  const tableSize = BASE ** m.contributors;
  const f = slotFactors(parameters);
  const shapeAt = slotShape;
  const weightAt = slotLogWeight;
  const { mx } = parameters;
  const contributors = m.contributors;
  const { slotIndex } = m;
  for (let i = 0; i < slotIndex.length; i++) {
    const slot = slotIndex[i]!;
    const p = (slot / tableSize) | 0;
    let own = 0;
    let above = 0;
    let below = 0;
    for (let k = 0, rest = slot - p * tableSize; k < contributors; k++, rest = (rest / BASE) | 0) {
      const c = (rest % BASE) * 3;
      own += COPIES[c]! * mx[k]!;
      above += COPIES[c + 1]! * mx[k]!;
      below += COPIES[c + 2]! * mx[k]!;
    }
    weights[slot] = weightAt(e, m, f, p, shapeAt(e, f, p, own, above, below));
  }
}
