import { and, eq, inArray } from 'drizzle-orm';
import { FOREIGN_QUERY_STRINGENCIES } from '../../core/schemas/foreign-queries';
import type { Db } from '../db/database';
import { profiles } from '../db/schema';
import type { Genotype } from '../genetics/types';
import { KEYBOARD_SCAN_LIMIT, mergeKeyboardCandidates, type KeyboardCandidates } from '../matching/keyboard-candidates';
import type { MatchingService } from '../matching/matching-service';
import type { ProfileKind } from '../matching/types';
import { searchOnParts, type SearchPool } from '../search/search-pool';

/** Most release requests one hit opens (the strongest candidates); the answer still counts every candidate. */
export const MAX_RELEASE_REQUESTS = 20;

/** Prüm II's comparison floor: at least 6 compared loci; no mismatch (a near match is not reported as a hit here). */
const FOREIGN_QUERY_RULES = { minMarkers: 6, maxMismatches: 0 };

/** What the identity search found: the strongest stringency met, the candidates' count and the strongest ones. */
export interface ForeignSearchResult {
  stringency: (typeof FOREIGN_QUERY_STRINGENCIES)[number] | null;
  candidateCount: number;
  candidates: { profileId: string; organizationId: string }[];
}

/**
 * The identity stringency search of a foreign query (issue 32, Prüm II; GENETICS.md "Database search"): the keyboard
 * search's scan with no analysis, over every organization's approved profiles, at high stringency and, when that finds
 * nobody, at moderate; Prüm's floor of 6 compared loci. Low stringency (one shared allele) is no
 * identity and is not tried.
 */
export async function searchForeignProfile(db: Db, matching: MatchingService, pool: SearchPool | undefined, kind: ProfileKind, query: ReadonlyMap<string, Genotype>): Promise<ForeignSearchResult> {
  for (const stringency of FOREIGN_QUERY_STRINGENCIES) {
    const options = { stringency, ...FOREIGN_QUERY_RULES };
    const scanned = await searchOnParts<KeyboardCandidates>(
      pool,
      matching.indexes,
      kind,
      { task: 'keyboard', input: { kind, query, options, analyses: [], populations: [], organizations: 'all', limit: KEYBOARD_SCAN_LIMIT } },
      mergeKeyboardCandidates,
    );
    const ids = scanned.candidates.filter((c) => c.stringencyMet).map((c) => c.profileId);
    if (ids.length === 0) continue;
    // The database stays the safety net: a profile reset since the index saw it is no candidate.
    const rows = await db.select({ id: profiles.id, organizationId: profiles.organizationId }).from(profiles).where(and(inArray(profiles.id, ids), eq(profiles.status, 'approved')));
    const held = new Map(rows.map((r) => [r.id, r.organizationId]));
    const kept = ids.filter((id) => held.has(id));
    if (kept.length === 0) continue;
    return {
      stringency,
      candidateCount: scanned.found - (ids.length - kept.length),
      candidates: kept.slice(0, MAX_RELEASE_REQUESTS).map((profileId) => ({ profileId, organizationId: held.get(profileId)! })),
    };
  }
  return { stringency: null, candidateCount: 0, candidates: [] };
}
