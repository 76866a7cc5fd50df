import type { HitCandidate } from '../matching/types';

/**
 * The identity of a hit: its analysis, population and the set of (role, profile) pairs. Two searches
 * that find the same profiles in the same roles give the same key, so the hit is stored once
 * (a unique index on hits.dedupe_key).
 */
export function hitDedupeKey(candidate: Pick<HitCandidate, 'analysisId' | 'populationId' | 'profiles'>): string {
  const pairs = candidate.profiles.map((p) => `${p.role}=${p.profileId}`).sort();
  return [candidate.analysisId, candidate.populationId ?? '-', ...pairs].join('|');
}
