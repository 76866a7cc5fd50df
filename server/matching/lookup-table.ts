import type { Genotype } from '../genetics/types';
import { genotypeAt, type MarkerColumn } from './marker-column';

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
  /** The column's dictionary size when planned (allele indices 0 … alleles−1 occur); 1 << shift when not given. */
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
/**
 * The same by dictionary text: a search worker gets a new view of every column per search (issue 29: decoding every
 * column again cost a slice of a split mixture search a twentieth of its time). Bounded: a grown dictionary is a new key.
 */
const BY_DICTIONARY = new Map<string, Genotype[]>();
const DICTIONARIES_KEPT = 512;

function decodedGenotypes(column: MarkerColumn, shift: number): Genotype[] {
  const n = column.alleles.length;
  const cached = DECODED.get(column);
  if (cached?.size === n) return cached.genotypes;
  const key = column.alleles.join('\u0000');
  let genotypes = BY_DICTIONARY.get(key);
  if (!genotypes) {
    genotypes = [];
    for (let lo = 1; lo < n; lo++) for (let hi = lo; hi < n; hi++) genotypes[(lo << shift) | hi] = genotypeAt(column, lo, hi);
    if (BY_DICTIONARY.size >= DICTIONARIES_KEPT) BY_DICTIONARY.delete(BY_DICTIONARY.keys().next().value!);
    BY_DICTIONARY.set(key, genotypes);
  }
  DECODED.set(column, { size: n, genotypes });
  return genotypes;
}
