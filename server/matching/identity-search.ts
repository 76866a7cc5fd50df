import type { Genotype } from '../genetics/types';
import { compareGenotypes, compareProfiles, isComparableGenotype } from './genotype-comparison';
import { planColumn, type ColumnPlan } from './lookup-table';
import { isIgnoredMarker, type ProfileIndex } from './profile-index';
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
    plans.push(planColumn(column, (n) => new Uint32Array(n), (stored) => VALUE[compareGenotypes(stringency, genotype, stored)], 0));
  }
  return plans;
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
