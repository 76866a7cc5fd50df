import { compareAlleles } from '../../core/alleles';
import type { Genotype } from '../genetics/types';

/**
 * One marker's column: an allele dictionary and, per profile slot, the genotype as two allele indices
 * (lo ≤ hi; a homozygote repeats its index; 0/0 = not typed).
 */
export interface MarkerColumn {
  readonly name: string;
  /** Dictionary: index → allele text; index 0 is the "not typed" placeholder. */
  readonly alleles: string[];
  readonly indexOf: Map<string, number>;
  lo: Uint8Array;
  hi: Uint8Array;
}

/**
 * The genotype two allele indices stand for, alleles in designation order (as profiles store them): one array per
 * column and pair of indices, kept (a dictionary only grows, so an index pair always names the same alleles), so a hit
 * list of a thousand candidates reads shared genotypes rather than making twenty arrays each (issue 29).
 */
export function genotypeAt(column: MarkerColumn, lo: number, hi: number): Genotype {
  let made = GENOTYPES.get(column);
  if (!made) GENOTYPES.set(column, (made = new Map()));
  // Allele indices are bytes: one key per pair.
  const key = lo * 256 + hi;
  let genotype = made.get(key);
  if (genotype === undefined) {
    const a = column.alleles[lo]!;
    const b = column.alleles[hi]!;
    // Two alleles ordered by one comparison: Array.prototype.sort copies its array first.
    made.set(key, (genotype = lo === hi ? [a] : compareAlleles(a, b) <= 0 ? [a, b] : [b, a]));
  }
  return genotype;
}

const GENOTYPES = new WeakMap<MarkerColumn, Map<number, Genotype>>();
