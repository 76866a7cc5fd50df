import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/database';
import { families } from '../db/schema';
import { recordFamilyHits } from '../hits/record-family-hits';
import type { HitRow } from '../hits/record-hits';
import type { IndexSet } from '../matching/index-set';
import type { MatchProfile } from '../matching/types';
import { noticeCandidateMatches } from '../network/candidate-match-notices';
import { searchedOrganizations } from '../network/held-organizations';
import { isFamilyHit, REMAINS_SAMPLE_TYPE, searchedRemains, weighRemains, type FamilyMatch } from './family-search';
import { FamilyProblem, loadFamily, type FamilyStatistics, type LoadedFamily } from './load-family';

/** Weighs a remains profile against one loaded family (the search runtime does it on a search worker). */
export type WeighRemains = (loaded: LoadedFamily, profile: MatchProfile, searched: number) => FamilyMatch | Promise<FamilyMatch>;

const weighHere: WeighRemains = (loaded, profile, searched) => weighRemains(loaded, profile.id, profile.genotypes, searched, new Map());

/**
 * The other direction of the missing-person search (issue 16): an approved Unidentified Human (Remains) profile is
 * weighed as the missing person of every active family of its organization — at the upper level, of every laboratory
 * held there, as those families search it (issue 32); each reaching the family's threshold in every population
 * becomes a pending hit, the family's. A family that cannot be searched now (a relative's profile reset) is passed
 * over: its activation search names the problem. Resolves to the hits added.
 */
export async function searchActiveFamilies(db: Db, indexes: IndexSet, profile: MatchProfile, weigh: WeighRemains = weighHere, statistics?: FamilyStatistics): Promise<HitRow[]> {
  if (profile.kind !== 'Autosomal' || profile.sampleType !== REMAINS_SAMPLE_TYPE) return [];
  const organizationIds = await searchedOrganizations(db, profile.organizationId);
  const rows = await db.select().from(families).where(and(inArray(families.organizationId, organizationIds), eq(families.status, 'active')));
  const added: HitRow[] = [];
  for (const row of rows) {
    let loaded;
    try {
      loaded = await loadFamily(db, indexes, row, statistics);
    } catch (error) {
      if (error instanceof FamilyProblem) continue;
      throw error;
    }
    const match = await weigh(loaded, profile, searchedRemains(loaded, indexes));
    if (!isFamilyHit(loaded, match)) continue;
    const hits = await db.transaction(async (tx) => {
      const hits = await recordFamilyHits(tx as unknown as Db, loaded, [match], 'Database search');
      // At an upper level a held laboratory's family or remains in the hit: sent down with it (issue 32).
      await noticeCandidateMatches(tx as unknown as Db, hits);
      return hits;
    });
    added.push(...hits);
  }
  return added;
}
