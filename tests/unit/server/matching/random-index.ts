// Random indexes for the category pass's tests (category-pass, category-stages): seeded, so every run reads the same.
import { seededRandom } from '../../../../core/seeded-random';
import type { Genotype } from '../../../../server/genetics/types';
import { IndexSet } from '../../../../server/matching/index-set';

/**
 * An index of `size` random profiles over `markers`, each marker untyped with probability `untyped`, its alleles
 * among `alleles` designations from 5 up, skewed towards the first as real dictionaries are (rare ones get the
 * indices past 16).
 */
export function randomIndex(seed: number, size: number, options: { markers: readonly string[]; alleles: number; untyped: number }) {
  const next = seededRandom(seed);
  const set = new IndexSet();
  for (let i = 0; i < size; i++) {
    const genotypes = new Map<string, Genotype>();
    for (const marker of options.markers) {
      if (next() < options.untyped) continue;
      const allele = () => String(5 + Math.floor(options.alleles * next() ** 2));
      const [a, b] = [allele(), allele()];
      genotypes.set(marker, a === b ? [a] : [a, b]);
    }
    set.upsert({ id: `P${i}`, kind: 'Autosomal', chemistryId: 'kit', organizationId: 'org', genotypes });
  }
  return set.index('kit', 'Autosomal');
}
