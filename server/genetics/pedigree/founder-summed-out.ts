import { packed } from './packed-array';
import { scratchTable, type Factor } from './variable-elimination';

/** One allele passed from a parent: the child's variable, the alleles it may take, the parent's sex's mutation matrix. */
export interface Transmission {
  v: number;
  to: readonly number[];
  matrix: Float64Array;
}

/** Most children of an untyped founder summed out in closed form (2^k subsets); more go through the elimination. */
export const MAX_SUMMED_CHILDREN = 3;

/**
 * Σ over an untyped founder's genotype of its Hardy–Weinberg probability times what it passes to its k children, as one
 * factor over the children's alleles. With the founder's alleles x, y drawn independently and each child given either
 * with ½, Σx,y p(x)p(y) Πi ½(Mi[x][ci] + Mi[y][ci]) = 2^-k ΣS t(S)·t(S'), where S runs over the subsets of the children,
 * S' is the rest and t(S) = Σx p(x) Πi∈S Mi[x][ci] (t(∅) = Σp): n·2^k products per cell, not n²/2·k.
 */
export function founderSummedOut(p: readonly number[], n: number, children: readonly Transmission[]): Factor {
  const k = children.length;
  const widths: number[] = [];
  // g[i][x·wi + j] = Mi[x][child i's j-th allele]; a missing member reads one 1 per allele (× 1 is exact).
  const gathered: Float64Array[] = [];
  for (let i = 0; i < k; i++) {
    const { to, matrix } = children[i]!;
    const g = scratchTable(n * to.length);
    for (let x = 0; x < n; x++) for (let j = 0; j < to.length; j++) g[x * to.length + j] = matrix[x * n + to[j]!]!;
    widths.push(to.length);
    gathered.push(g);
  }
  const ones = scratchTable(n).fill(1);
  // t(S) for every subset S (bit i: child i), row-major over S's children in order, summed over x outermost; the
  // members of S in order are g0, g1, g2, the missing ones `ones` of width 1.
  const t: Float64Array[] = [];
  for (let subset = 0; subset < 1 << k; subset++) {
    let g0 = ones;
    let g1 = ones;
    let g2 = ones;
    let w0 = 1;
    let w1 = 1;
    let w2 = 1;
    let members = 0;
    for (let i = 0; i < k; i++) {
      if (!(subset & (1 << i))) continue;
      if (members === 0) {
        g0 = gathered[i]!;
        w0 = widths[i]!;
      } else if (members === 1) {
        g1 = gathered[i]!;
        w1 = widths[i]!;
      } else {
        g2 = gathered[i]!;
        w2 = widths[i]!;
      }
      members++;
    }
    const table = scratchTable(w0 * w1 * w2);
    for (let x = 0; x < n; x++) {
      const px = p[x]!;
      for (let j0 = 0; j0 < w0; j0++) {
        const a = px * g0[x * w0 + j0]!;
        if (a === 0) continue;
        for (let j1 = 0; j1 < w1; j1++) {
          const b = a * g1[x * w1 + j1]!;
          if (b === 0) continue;
          const row = (j0 * w1 + j1) * w2;
          for (let j2 = 0; j2 < w2; j2++) table[row + j2]! += b * g2[x * w2 + j2]!;
        }
      }
    }
    t.push(table);
  }
  let length = 1;
  for (const w of widths) length *= w;
  const table = scratchTable(length);
  const digit = new Int32Array(k);
  const all = (1 << k) - 1;
  const scale = 1 / (1 << k);
  for (let at = 0; at < length; at++) {
    let sum = 0;
    for (let subset = 0; subset <= all; subset++) {
      // The cell's place in t(S) and in t(S'): the digits of S's children, and of the others, row-major.
      let inS = 0;
      let inRest = 0;
      for (let i = 0; i < k; i++) {
        if (subset & (1 << i)) inS = inS * widths[i]! + digit[i]!;
        else inRest = inRest * widths[i]! + digit[i]!;
      }
      sum += t[subset]![inS]! * t[all ^ subset]![inRest]!;
    }
    table[at] = sum * scale;
    for (let i = k - 1; i >= 0; i--) {
      if (++digit[i]! < widths[i]!) break;
      digit[i] = 0;
    }
  }
  return { vars: packed(k, (i) => children[i]!.v), table };
}
