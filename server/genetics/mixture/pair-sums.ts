/**
 * The sampling sums of every class genotype at once (issue 29): for a genotype of classes a ≤ b, Σ over the leaves (in
 * leaf order) of weight × Π_k S[k, mₖ] with θ's counts raised by its copies — candidate-likelihoods.ts leafSampling's
 * sum, bit for bit. A leaf's product reads the raised rows only at the classes it draws, so it takes one of a few values
 * whatever the genotype: none of its classes (the candidate-free product), one of them raised by one or two copies, or
 * two raised by one each. Each such product is made once per leaf, the same doubles multiplied in the same order
 * (its prefix up to the first raised entry, then entry by entry), and each genotype's sum adds its leaves' products in
 * leaf order, as the per-genotype sum does.
 */
import type { Leaves } from './mixture-likelihood';
import { samplingRow } from './mixture-likelihood';
import { scratchFloat64 } from '../statistics/search-scratch';

/** Where a leaf's drawn classes lie (candidate-likelihoods.ts LeafLayout): leaf l's entries start[l] … start[l + 1] − 1, each a class's S index. */
export interface EntryLayout {
  start: Int32Array;
  cells: Int32Array;
}

/**
 * Per leaf and genotype (a ≤ b, pair index q), which of the leaf's products it takes: 0 none raised, 1 + i entry i
 * raised by one copy, 1 + D + i by two, 1 + 2D + j(j − 1)/2 + i entries i < j by one each (D: most entries of a leaf).
 */
interface PairPatterns {
  D: number;
  width: number;
  /** pattern[l · P + q], P = K(K + 1)/2 genotypes in the order a = 0 … K − 1, b = a … K − 1. */
  pattern: Uint8Array;
}

const PATTERNS = new WeakMap<Leaves, PairPatterns>();

function pairPatterns(K: number, leaves: Leaves, { start, cells }: EntryLayout, drawn: number): PairPatterns | null {
  const kept = PATTERNS.get(leaves);
  if (kept) return kept;
  const L = leaves.count;
  let D = 0;
  for (let l = 0; l < L; l++) D = Math.max(D, start[l + 1]! - start[l]!);
  const width = 1 + 2 * D + (D * (D - 1)) / 2;
  if (width > 255) return null;
  const P = (K * (K + 1)) / 2;
  const pattern = new Uint8Array(L * P);
  const slot = new Int32Array(K);
  for (let l = 0; l < L; l++) {
    slot.fill(-1);
    for (let e = start[l]!; e < start[l + 1]!; e++) slot[Math.floor(cells[e]! / (drawn + 1))] = e - start[l]!;
    let q = 0;
    for (let a = 0; a < K; a++) {
      for (let b = a; b < K; b++, q++) {
        const i = slot[a]!;
        const j = slot[b]!;
        let p = 0;
        if (a === b) p = i < 0 ? 0 : 1 + D + i;
        else if (i >= 0 && j >= 0) p = 1 + 2 * D + (j * (j - 1)) / 2 + i;
        else if (i >= 0) p = 1 + i;
        else if (j >= 0) p = 1 + j;
        pattern[l * P + q] = p;
      }
    }
  }
  const made = { D, width, pattern };
  PATTERNS.set(leaves, made);
  return made;
}

/** A leaf's products under every pattern of raised rows, and which pattern each genotype takes (pairPatterns). */
export interface PairSampling {
  /** Genotypes: P = K(K + 1)/2, in the order a = 0 … K − 1, b = a … K − 1. */
  P: number;
  width: number;
  pattern: Uint8Array;
  /** Leaf l's products into row[0 … width − 1], each pattern's, as leafSampling multiplies them; the leaf's entry count. */
  products(l: number, row: Float64Array): number;
  /** Most entries of a leaf (the patterns' layout: 0, then 1 + i, 1 + D + i, 1 + 2D + j(j − 1)/2 + i). */
  D: number;
}

/**
 * The sampling products of a leaf for every genotype pattern; null when a leaf draws too many classes for the patterns.
 * `base`: the candidate-free sampling table; `prefix[e + l]` leaf l's product of its entries before entry e.
 */
export function pairSampling(K: number, leaves: Leaves, layout: EntryLayout, drawn: number, frequencies: Float64Array, counts: Float64Array, theta: number, base: Float64Array, prefix: Float64Array): PairSampling | null {
  const patterns = pairPatterns(K, leaves, layout, drawn);
  if (!patterns) return null;
  const { D, width, pattern } = patterns;
  const { start, cells } = layout;
  // The rows raised by one and by two copies, as leafSampling's samplingRow makes them for a genotype carrying the class.
  const one = scratchFloat64(base.length);
  const two = scratchFloat64(base.length);
  for (let k = 0; k < K; k++) {
    samplingRow(one, k, frequencies[k]!, counts[k]! + 1, theta, drawn);
    samplingRow(two, k, frequencies[k]!, counts[k]! + 2, theta, drawn);
  }
  // A method, not a named arrow: under tsx (esbuild keepNames) each named closure costs a defineProperty when made.
  return {
    P: (K * (K + 1)) / 2,
    width,
    pattern,
    D,
    products(l: number, row: Float64Array) {
      const first = start[l]!;
      const end = start[l + 1]!;
      row[0] = prefix[end + l]!;
      for (let e = first; e < end; e++) {
        const i = e - first;
        const before = prefix[e + l]!;
        let s1 = before * one[cells[e]!]!;
        let s2 = before * two[cells[e]!]!;
        // Entries e and g raised: s1 so far (entry e raised, the ones before g not) times g's raised row, then the rest:
        // the factors of the product written out one by one, in the same order.
        for (let g = e + 1; g < end; g++) {
          const j = g - first;
          let s = s1 * one[cells[g]!]!;
          for (let f = g + 1; f < end; f++) s *= base[cells[f]!]!;
          row[1 + 2 * D + (j * (j - 1)) / 2 + i] = s;
          s1 *= base[cells[g]!]!;
          s2 *= base[cells[g]!]!;
        }
        row[1 + i] = s1;
        row[1 + D + i] = s2;
      }
      return end - first;
    },
  };
}

/**
 * Every class genotype's Σ weight × sampling product (index a · K + b, a ≤ b; the others 0), weights fixed for every
 * genotype; null when pairSampling cannot.
 */
export function everyPairSum(K: number, leaves: Leaves, layout: EntryLayout, drawn: number, frequencies: Float64Array, counts: Float64Array, theta: number, base: Float64Array, prefix: Float64Array, weights: Float64Array): Float64Array | null {
  const sampling = pairSampling(K, leaves, layout, drawn, frequencies, counts, theta, base, prefix);
  if (!sampling) return null;
  const { P, width, pattern, D } = sampling;
  // Four leaves' weighted rows at a time: each genotype's sum then takes their four terms in leaf order in one pass,
  // read and written once per four leaves, not once per leaf (the same additions in the same order).
  const rows = [scratchFloat64(width), scratchFloat64(width), scratchFloat64(width), scratchFloat64(width)] as const;
  const [r0, r1, r2, r3] = rows;
  const sums = scratchFloat64(P);
  let held = 0;
  let a0 = 0;
  let a1 = 0;
  let a2 = 0;
  for (let l = 0; l < leaves.count; l++) {
    const w = weights[l]!;
    if (w === 0) continue;
    const row = rows[held]!;
    const d = sampling.products(l, row);
    // weight × product, as leafSampling adds it (its kept term where the leaf shares no class), at the leaf's patterns.
    row[0] = w * row[0]!;
    for (let i = 0; i < d; i++) {
      row[1 + i] = w * row[1 + i]!;
      row[1 + D + i] = w * row[1 + D + i]!;
    }
    for (let x = 1 + 2 * D, end = x + (d * (d - 1)) / 2; x < end; x++) row[x] = w * row[x]!;
    const at = l * P;
    if (held === 0) a0 = at;
    else if (held === 1) a1 = at;
    else if (held === 2) a2 = at;
    else {
      for (let q = 0; q < P; q++) sums[q] = sums[q]! + r0[pattern[a0 + q]!]! + r1[pattern[a1 + q]!]! + r2[pattern[a2 + q]!]! + r3[pattern[at + q]!]!;
      held = 0;
      continue;
    }
    held++;
  }
  // The last leaves, fewer than four, in order.
  if (held > 0) for (let q = 0; q < P; q++) sums[q] = sums[q]! + r0[pattern[a0 + q]!]!;
  if (held > 1) for (let q = 0; q < P; q++) sums[q] = sums[q]! + r1[pattern[a1 + q]!]!;
  if (held > 2) for (let q = 0; q < P; q++) sums[q] = sums[q]! + r2[pattern[a2 + q]!]!;
  return spread(K, sums);
}

/** Pair q's value at a · K + b. */
export function spread(K: number, sums: Float64Array): Float64Array {
  const out = scratchFloat64(K * K);
  for (let a = 0, q = 0; a < K; a++) for (let b = a; b < K; b++, q++) out[a * K + b] = sums[q]!;
  return out;
}
