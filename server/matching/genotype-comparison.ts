import { isComparable, parseAllele } from '../../core/alleles';
import type { Genotype } from '../genetics/types';
import type { Stringency } from './types';

/** How one marker of two profiles compares: not comparable (untyped or a lab marking), meets the stringency, or fails it. */
export type MarkerComparison = 'skip' | 'match' | 'mismatch';

/** Whether a genotype takes part in a comparison: typed, and no lab marking such as OL or <8 (GENETICS.md "Profiles and alleles"). */
export function isComparableGenotype(genotype: Genotype | null | undefined): genotype is Genotype {
  return !!genotype && genotype.length > 0 && genotype.every((a) => isComparable(parseAllele(a)));
}

/**
 * One marker under a CODIS stringency (GENETICS.md "Database search"): high — identical allele sets;
 * moderate — one set contained in the other (mixtures, drop-out); low — at least one shared allele.
 */
export function compareGenotypes(stringency: Stringency, a: Genotype | null | undefined, b: Genotype | null | undefined): MarkerComparison {
  if (!isComparableGenotype(a) || !isComparableGenotype(b)) return 'skip';
  const setA = new Set(a);
  const setB = new Set(b);
  const shared = [...setA].filter((x) => setB.has(x)).length;
  const ok =
    stringency === 'high' ? shared === setA.size && shared === setB.size : stringency === 'moderate' ? shared === Math.min(setA.size, setB.size) : shared > 0;
  return ok ? 'match' : 'mismatch';
}

/** Compared and mismatched markers over the markers of `query` (the plain per-profile comparison the index must agree with). */
export function compareProfiles(stringency: Stringency, query: ReadonlyMap<string, Genotype>, other: ReadonlyMap<string, Genotype>, ignore: (marker: string) => boolean) {
  let comparedMarkers = 0;
  let mismatches = 0;
  for (const [marker, genotype] of query) {
    if (ignore(marker)) continue;
    const result = compareGenotypes(stringency, genotype, other.get(marker));
    if (result === 'skip') continue;
    comparedMarkers++;
    if (result === 'mismatch') mismatches++;
  }
  return { comparedMarkers, mismatches };
}
