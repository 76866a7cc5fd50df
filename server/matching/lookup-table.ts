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
  for (let lo = 1; lo < n; lo++) {
    for (let hi = lo; hi < n; hi++) {
      const code = (lo << shift) | hi;
      table[code] = valueOf(genotypeAt(column, lo, hi), code);
    }
  }
  return { lo: column.lo, hi: column.hi, shift, table };
}
