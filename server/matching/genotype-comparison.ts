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
  // Distinct alleles counted in place (a genotype holds a few): no Set per call: a search's tables compare every stored genotype of each marker (issue 29).
  const sizeA = distinctCount(a);
  const sizeB = distinctCount(b);
  let shared = 0;
  for (let i = 0; i < a.length; i++) if (a.indexOf(a[i]!) === i && b.includes(a[i]!)) shared++;
  const ok = stringency === 'high' ? shared === sizeA && shared === sizeB : stringency === 'moderate' ? shared === Math.min(sizeA, sizeB) : shared > 0;
  return ok ? 'match' : 'mismatch';
}

/** How many distinct alleles a genotype holds. */
function distinctCount(genotype: Genotype): number {
  let n = 0;
  for (let i = 0; i < genotype.length; i++) if (genotype.indexOf(genotype[i]!) === i) n++;
  return n;
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
