import { packed } from './packed-array';
import type { MutationMatrix } from './mutation-model';
import type { PedigreeMarker } from './pedigree-marker';

/** Equal to the last bits a double holds: a model is lumpable only when the entries agree exactly (up to rounding). */
const same = (a: number, b: number) => Math.abs(a - b) <= 1e-14 * Math.max(Math.abs(a), Math.abs(b), 1e-300);

/**
 * Whether the alleles `lump` (indices) can be merged into one for matrix m: strongly lumpable, every allele of the lump
 * reaching each allele outside it with the same probability (Kemeny & Snell 1960; pedmut `alwaysLumpable`). The
 * identity, "equal" and "proportional" models always are; stepwise models in general are not.
 */
function lumpable(m: MutationMatrix, lump: readonly number[], keep: readonly number[]): boolean {
  const n = m.alleles.length;
  return keep.every((i) => lump.every((l) => same(m.values[l * n + i]!, m.values[lump[0]! * n + i]!)));
}

/** The matrix over the kept alleles and one lump last: rows of kept alleles sum their entries into the lump. */
function lumpMatrix(m: MutationMatrix, lump: readonly number[], keep: readonly number[]): MutationMatrix {
  const n = m.alleles.length;
  const k = keep.length + 1;
  const values = new Float64Array(k * k);
  const rows = [...keep, lump[0]!];
  rows.forEach((from, r) => {
    let toKept = 0;
    keep.forEach((to, c) => {
      values[r * k + c] = m.values[from * n + to]!;
      toKept += m.values[from * n + to]!;
    });
    values[r * k + k - 1] = r < keep.length ? lump.reduce((s, to) => s + m.values[from * n + to]!, 0) : 1 - toKept;
  });
  return { alleles: packed(keep.length + 1, (i) => (i < keep.length ? m.alleles[keep[i]!]! : LUMP)), values, spec: m.spec };
}

/** The name of the merged allele of a lumped marker (no designation can be empty). */
export const LUMP = '';

/**
 * The marker with every allele no typed person carries merged into one, when both sexes' models allow it (exact:
 * founders draw the lump with its summed frequency). Never when only one sex's model is lumpable (pedmut 0.9.1
 * lumps then, wrongly; GENETICS.md "Mutation models").
 */
export function lumpUntypedAlleles(marker: PedigreeMarker, typedAlleles: ReadonlySet<string>): PedigreeMarker {
  const keep = marker.alleles.flatMap((a, i) => (typedAlleles.has(a) ? [i] : []));
  const lump = marker.alleles.flatMap((a, i) => (typedAlleles.has(a) ? [] : [i]));
  if (lump.length < 2 || !lumpable(marker.female, lump, keep) || !lumpable(marker.male, lump, keep)) return marker;
  return {
    alleles: packed(keep.length + 1, (i) => (i < keep.length ? marker.alleles[keep[i]!]! : LUMP)),
    frequencies: packed(keep.length + 1, (i) => (i < keep.length ? marker.frequencies[keep[i]!]! : lump.reduce((s, l) => s + marker.frequencies[l]!, 0))),
    female: lumpMatrix(marker.female, lump, keep),
    male: lumpMatrix(marker.male, lump, keep),
  };
}
