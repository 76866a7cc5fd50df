import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/database';
import { families } from '../db/schema';
import { recordFamilyHits } from '../hits/record-family-hits';
import type { IndexSet } from '../matching/index-set';
import type { MatchProfile } from '../matching/types';
import { noticeCandidateMatches } from '../network/candidate-match-notices';
import { isFamilyHit, REMAINS_SAMPLE_TYPE, searchedRemains, weighRemains, type FamilyMatch } from './family-search';
import { FamilyProblem, loadFamily, type FamilyStatistics, type LoadedFamily } from './load-family';

/**
 * The other direction of the missing-person search (issue 16): an approved Unidentified Human (Remains) profile is
 * weighed as the missing person of every active family of its organization; each reaching the family's threshold
 * in every population becomes a pending hit. A family that cannot be searched now (a relative's profile reset) is
 * passed over: its activation search names the problem. Resolves to how many hits were added.
 */
/** Weighs a remains profile against one loaded family (the search runtime does it on a search worker). */
export type WeighRemains = (loaded: LoadedFamily, profile: MatchProfile, searched: number) => FamilyMatch | Promise<FamilyMatch>;

const weighHere: WeighRemains = (loaded, profile, searched) => weighRemains(loaded, profile.id, profile.genotypes, searched, new Map());

export async function searchActiveFamilies(db: Db, indexes: IndexSet, profile: MatchProfile, weigh: WeighRemains = weighHere, statistics?: FamilyStatistics): Promise<number> {
  if (profile.kind !== 'Autosomal' || profile.sampleType !== REMAINS_SAMPLE_TYPE) return 0;
  const rows = await db.select().from(families).where(and(eq(families.organizationId, profile.organizationId), eq(families.status, 'active')));
  let added = 0;
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
    added += await db.transaction(async (tx) => {
      const hits = await recordFamilyHits(tx as unknown as Db, loaded, [match], 'Database search');
      // At an upper level a held laboratory's family or remains in the hit: sent down with it (issue 32).
      await noticeCandidateMatches(tx as unknown as Db, hits);
      return hits.length;
    });
  }
  return added;
}
