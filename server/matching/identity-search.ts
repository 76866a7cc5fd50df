import { isComparable, parseAllele } from '../../core/alleles';
import type { Genotype } from '../genetics/types';
import { compareProfiles, isComparableGenotype } from './genotype-comparison';
import type { ColumnPlan } from './lookup-table';
import { isIgnoredMarker, type MarkerColumn, type ProfileIndex } from './profile-index';
import { COMPARED, countScan, FAIL } from './scans';
import type { IdentityCandidate, IdentityOptions, Stringency } from './types';

const VALUE = { skip: 0, match: COMPARED, mismatch: COMPARED + FAIL } as const;

/**
 * Per comparable query marker the index holds, a table from every stored genotype to COMPARED (meets the
 * stringency), COMPARED + FAIL (fails it) or 0 (not compared): one slot's sum over the tables counts both.
 */
export function identityPlans(index: ProfileIndex, query: ReadonlyMap<string, Genotype>, stringency: Stringency): ColumnPlan<Uint32Array>[] {
  const plans: ColumnPlan<Uint32Array>[] = [];
  for (const [marker, genotype] of query) {
    const column = index.column(marker);
    if (!column || isIgnoredMarker(marker) || !isComparableGenotype(genotype)) continue;
    plans.push(identityPlan(column, genotype, stringency));
  }
  return plans;
}

/**
 * One marker's table, VALUE[compareGenotypes(stringency, query, stored)] for every stored genotype (GENETICS.md
 * "Database search"), from two flags per dictionary allele (comparable, in the query) instead of comparing allele sets
 * per genotype: a search plans every marker, and a worker plans afresh for every search and slice.
 */
function identityPlan(column: MarkerColumn, query: Genotype, stringency: Stringency): ColumnPlan<Uint32Array> {
  const n = column.alleles.length;
  const shift = 32 - Math.clz32(n - 1);
  const table = new Uint32Array(1 << (2 * shift));
  const queryAlleles = new Set(query);
  const comparable = new Uint8Array(n);
  const inQuery = new Uint8Array(n);
  for (let a = 1; a < n; a++) {
    const allele = column.alleles[a]!;
    comparable[a] = isComparable(parseAllele(allele)) ? 1 : 0;
    inQuery[a] = queryAlleles.has(allele) ? 1 : 0;
  }
  // Dictionary alleles are distinct, so a stored genotype is the set {lo, hi}: one allele when lo = hi, else two.
  for (let lo = 1; lo < n; lo++) {
    if (!comparable[lo]) continue;
    for (let hi = lo; hi < n; hi++) {
      if (!comparable[hi]) continue;
      const size = hi === lo ? 1 : 2;
      const shared = inQuery[lo]! + (hi === lo ? 0 : inQuery[hi]!);
      const meets = stringency === 'high' ? shared === queryAlleles.size && shared === size : stringency === 'moderate' ? shared === Math.min(queryAlleles.size, size) : shared > 0;
      table[(lo << shift) | hi] = meets ? VALUE.match : VALUE.mismatch;
    }
  }
  return { lo: column.lo, hi: column.hi, shift, table, alleles: n };
}

/**
 * CODIS identity search of one index (GENETICS.md "Database search"): per query marker a table from
 * every stored genotype to match / mismatch / not compared under the stringency, then one scan; the
 * side list (mixtures) is compared profile by profile. A candidate meets the stringency at every
 * compared marker but `maxMismatches`, and compares at least `minMarkers` markers. `excludeId` is
 * the query's own id (a profile never matches itself); `groups` keeps only profiles of those groups
 * (ProfileIndex.groupMask).
 */
export function searchIdentity(index: ProfileIndex, query: ReadonlyMap<string, Genotype>, options: IdentityOptions, excludeId?: string, groups?: Uint8Array): IdentityCandidate[] {
  const plans = identityPlans(index, query, options.stringency);
  const found: IdentityCandidate[] = [];
  const excludeSlot = excludeId === undefined ? -1 : index.slotOf(excludeId);
  countScan(index.size, plans, options.maxMismatches, options.minMarkers, (slot, comparedMarkers, mismatches) => {
    if (slot !== excludeSlot && (groups === undefined || index.slotInGroups(slot, groups))) found.push({ profileId: index.idAt(slot), comparedMarkers, mismatches });
  });
  for (const [profileId, genotypes] of index.side) {
    if (profileId === excludeId || (groups !== undefined && !index.sideInGroups(profileId, groups))) continue;
    const counts = compareProfiles(options.stringency, query, genotypes, isIgnoredMarker);
    if (counts.mismatches <= options.maxMismatches && counts.comparedMarkers >= options.minMarkers) found.push({ profileId, ...counts });
  }
  return found;
}
