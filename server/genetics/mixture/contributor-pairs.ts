/**
 * Pr(E | H with the candidate as one more typed contributor) for every class genotype at once (issue 29): the numbers
 * candidate-likelihoods.ts likelihoodWithContributor gives each genotype, bit for bit, with the leaves outermost. Per
 * leaf, the candidate's drop-out products by class and copies are made once, the sampling products once per pattern
 * (pair-sums.ts), and the genotypes of one first class a share the first replicate's evidence product up to their second
 * class b — the same factors multiplied in the same order, so the same doubles; each genotype's sum adds its leaves'
 * terms in leaf order.
 */
import { scratchFloat64 } from '../statistics/search-scratch';
import { spread, type PairSampling } from './pair-sums';

/** What likelihoodWithContributor keeps per marker (its names). */
export interface ContributorParts {
  K: number;
  R: number;
  G: number;
  L: number;
  seen: readonly Uint8Array[];
  /** Per leaf, replicate and class: evidenceProbability's factor without the candidate, whether it is a drop-in; per leaf and replicate how many are. */
  factor: Float64Array;
  dropInAt: Uint8Array;
  dropIns: Int32Array;
  /** The first replicate's product over classes 0 … j − 1, per leaf (K + 1 each). */
  evidencePrefix: Float64Array;
  /** Group g's drop-out factor at leaf and class k, [(leaf · G + g) · K + k]. */
  groupFactor: Float64Array;
  orders: Float64Array;
  dropIn: number;
  /** typedOf's drop-out product of class k carried with c copies by the candidate (first) and the typed contributors. */
  typedDropoutWith(k: number, c: number): number;
  sampling: PairSampling;
  /** samplingDenominator of θ's total with a genotype's two copies. */
  denominator: number;
}

/** Every genotype's likelihood, index a · K + b (a ≤ b: one copy of a and of b, two of a when a = b). */
export function everyPairWithContributor(parts: ContributorParts): Float64Array {
  const { K, R, G, L, seen, factor, dropInAt, dropIns, evidencePrefix, groupFactor, orders, dropIn, sampling, denominator } = parts;
  const { P, width, pattern } = sampling;
  const one = new Float64Array(K);
  const two = new Float64Array(K);
  for (let k = 0; k < K; k++) {
    one[k] = parts.typedDropoutWith(k, 1);
    two[k] = parts.typedDropoutWith(k, 2);
  }
  const d1 = scratchFloat64(K);
  const d2 = scratchFloat64(K);
  const row = scratchFloat64(width);
  const sums = scratchFloat64(P);
  const keepNone = 1 - dropIn;
  const seen0 = R > 0 ? seen[0]! : null;
  for (let leaf = 0; leaf < L; leaf++) {
    sampling.products(leaf, row);
    for (let k = 0; k < K; k++) {
      let x = one[k]!;
      let y = two[k]!;
      for (let g = 0; g < G; g++) {
        x *= groupFactor[(leaf * G + g) * K + k]!;
        y *= groupFactor[(leaf * G + g) * K + k]!;
      }
      d1[k] = x;
      d2[k] = y;
    }
    const order = orders[leaf]!;
    const first = leaf * R * K;
    const at = leaf * P;
    for (let a = 0, q = 0; a < K; a++) {
      // The homozygote: two copies of a.
      let p = 1;
      if (seen0) {
        const dA = d2[a]!;
        p = evidencePrefix[leaf * (K + 1) + a]! * (seen0[a]! === 1 ? 1 - dA : dA);
        p = evidenceFrom(parts, leaf, p, a + 1, a, dA, K, 0, dropIns[leaf * R]! - dropInAt[first + a]!);
      }
      let w = order * p;
      if (w !== 0) sums[q] = sums[q]! + w * row[pattern[at + q]!]!;
      q++;
      // The heterozygotes a < b: the first replicate's product through b − 1 shared.
      const dA = d1[a]!;
      let through = seen0 ? evidencePrefix[leaf * (K + 1) + a]! * (seen0[a]! === 1 ? 1 - dA : dA) : 1;
      for (let b = a + 1; b < K; b++, q++) {
        p = 1;
        if (R === 1) {
          // One replicate (the usual stain): evidence's loop written out.
          const dB = d1[b]!;
          p = through * (seen0![b]! === 1 ? 1 - dB : dB);
          for (let k = b + 1; k < K; k++) p *= factor[first + k]!;
          if (dropIns[leaf]! - dropInAt[first + a]! - dropInAt[first + b]! === 0 && p !== 0) p *= keepNone;
          through *= factor[first + b]!;
        } else if (seen0) {
          const dB = d1[b]!;
          p = evidenceFrom(parts, leaf, through * (seen0[b]! === 1 ? 1 - dB : dB), b + 1, a, dA, b, dB, dropIns[leaf * R]! - dropInAt[first + a]! - dropInAt[first + b]!);
          through *= factor[first + b]!;
        }
        w = order * p;
        if (w !== 0) sums[q] = sums[q]! + w * row[pattern[at + q]!]!;
      }
    }
  }
  for (let q = 0; q < P; q++) sums[q] = sums[q]! / denominator;
  return spread(K, sums);
}

/**
 * The evidence product from p on (the first replicate's from class `from`, then every other replicate's), candidate
 * classes a (drop-out dA) and b (dB, when b < K) carried; the drop-in rule as evidenceProbability applies it. A function
 * of the module, not a closure per call: under tsx (esbuild keepNames) each named closure costs a defineProperty.
 */
function evidenceFrom(parts: ContributorParts, leaf: number, p: number, from: number, a: number, dA: number, b: number, dB: number, droppedFirst: number): number {
  const { K, R, seen, factor, dropInAt, dropIns } = parts;
  const keepNone = 1 - parts.dropIn;
  for (let r = 0; r < R; r++) {
    const at = (leaf * R + r) * K;
    let droppedIn = droppedFirst;
    if (r > 0) {
      const seenHere = seen[r]!;
      droppedIn = dropIns[leaf * R + r]! - dropInAt[at + a]! - (b < K ? dropInAt[at + b]! : 0);
      let k = 0;
      for (; k < a; k++) p *= factor[at + k]!;
      p *= seenHere[a]! === 1 ? 1 - dA : dA;
      k = a + 1;
      if (b < K) {
        for (; k < b; k++) p *= factor[at + k]!;
        p *= seenHere[b]! === 1 ? 1 - dB : dB;
        k = b + 1;
      }
      for (; k < K; k++) p *= factor[at + k]!;
    } else for (let k = from; k < K; k++) p *= factor[at + k]!;
    if (droppedIn === 0 && p !== 0) p *= keepNone;
  }
  return p;
}
