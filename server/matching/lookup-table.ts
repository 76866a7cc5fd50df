import type { Genotype } from '../genetics/types';
import { genotypeAt, type MarkerColumn } from './profile-index';

/**
 * A marker prepared for one query (GENETICS.md "How the search reaches memory speed"): a table from
 * every genotype code of the column — (lo << shift) | hi — to its value, so the scan does one lookup
 * per profile and marker instead of comparing alleles.
 */
export interface ColumnPlan<T extends Uint32Array | Float64Array> {
  lo: Uint8Array;
  hi: Uint8Array;
  shift: number;
  table: T;
  /** The column's dictionary size: no stored genotype holds an allele index at or past it (unknown: 1 << shift). */
  alleles?: number;
}

/** The table of one column: `valueOf` for every pair of dictionary alleles (lo ≤ hi), `missing` for the untyped code 0/0. */
export function planColumn<T extends Uint32Array | Float64Array>(
  column: MarkerColumn,
  make: (length: number) => T,
  valueOf: (genotype: Genotype, code: number) => number,
  missing: number,
): ColumnPlan<T> {
  const n = column.alleles.length;
  const shift = 32 - Math.clz32(n - 1);
  const table = make(1 << (2 * shift));
  table[0] = missing;
  const genotypes = decodedGenotypes(column, shift);
  for (let lo = 1; lo < n; lo++) {
    for (let hi = lo; hi < n; hi++) {
      const code = (lo << shift) | hi;
      table[code] = valueOf(genotypes[code]!, code);
    }
  }
  return { lo: column.lo, hi: column.hi, shift, table, alleles: n };
}

/** Each column's genotypes by code, decoded once (allele ordering parses designations) until its dictionary grows. */
const DECODED = new WeakMap<MarkerColumn, { size: number; genotypes: Genotype[] }>();

function decodedGenotypes(column: MarkerColumn, shift: number): Genotype[] {
  const n = column.alleles.length;
  const cached = DECODED.get(column);
  if (cached?.size === n) return cached.genotypes;
  const genotypes: Genotype[] = [];
  for (let lo = 1; lo < n; lo++) for (let hi = lo; hi < n; hi++) genotypes[(lo << shift) | hi] = genotypeAt(column, lo, hi);
  DECODED.set(column, { size: n, genotypes });
  return genotypes;
}
