import { and, eq, inArray } from 'drizzle-orm';
import { can } from '../../../core/permissions';
import type { Db } from '../../db/database';
import { cases, hits, profiles } from '../../db/schema';
import { profileSetOf } from '../../hits/record-rule-matches';
import { loadMatchProfile } from '../../matching/load-indexes';
import type { MatchRule } from '../../matching/rule-match';
import type { MatchProfile, ProfileKind } from '../../matching/types';
import { loadFamilialRule } from '../../search/familial-rule';
import type { SearchRuntime } from '../../search/search-runtime';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { BadRequest, Forbidden, HttpError } from '../errors';
import { findVisibleProfile, type ProfileJoinedRow } from '../profiles/profile-query';

/** What a familial search or a promotion names: the rule and, when not the defaults, the populations. */
export interface FamilialRequest {
  searchRuleId: string;
  populationIds?: readonly string[] | undefined;
}

/** The profile searched, the rule with its populations, and the matcher: what both calls start from. */
export interface FamilialInputs {
  row: ProfileJoinedRow;
  profile: MatchProfile;
  rule: MatchRule;
  analysisName: string;
  search: SearchRuntime;
}

/** The matcher, or 503: a server without one (some test set-ups) cannot search, nor one whose index is still loading. */
export function requireSearch(search: SearchRuntime | undefined): SearchRuntime {
  if (!search) throw new HttpError(503, 'The database search is not running on this server, so a familial search cannot be made. Try again later.');
  search.matcher();
  return search;
}

/**
 * The profile the user may reach (another organization's answers 404) with Hits Publish in its
 * organization, approved, and the on-request rule with the populations resolved (server/search/familial-rule.ts);
 * anything wrong in the request is a 400 naming its field.
 */
export async function familialInputs(db: Db, runtime: SearchRuntime | undefined, user: AuthenticatedUser, profileId: string, request: FamilialRequest): Promise<FamilialInputs> {
  const row = await findVisibleProfile(db, user, profileId);
  const { organizationId, sampleType, status, kind } = row.profile;
  if (!can(user, 'Hits', 'Publish', { orgId: organizationId })) throw new Forbidden();
  const search = requireSearch(runtime);
  if (status !== 'approved') throw new BadRequest(`Profile ${row.profile.profileId} is ${status}: only an approved profile is searched`);
  const loaded = await loadFamilialRule(db, search.queue.populations, { organizationId, sampleType, kind: kind as ProfileKind }, request.searchRuleId, request.populationIds);
  if (!loaded.ok) throw new BadRequest(loaded.message, [{ path: `/${loaded.field}`, message: loaded.message }]);
  const profile = await loadMatchProfile(db, profileId);
  if (!profile) throw new BadRequest(`Profile ${row.profile.profileId} has no markers to search with`);
  return { row, profile, rule: loaded.rule, analysisName: loaded.analysisName, search };
}

/** The candidates' rows with their cases, by id: sample name, case, sample type, organization and status. */
export async function candidateRows(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return new Map<string, never>();
  const rows = await db
    .select({ id: profiles.id, sampleName: profiles.profileId, caseId: profiles.caseId, caseNumber: cases.caseNumber, sampleType: profiles.sampleType, organizationId: profiles.organizationId, status: profiles.status })
    .from(profiles)
    .innerJoin(cases, eq(cases.id, profiles.caseId))
    .where(inArray(profiles.id, [...ids]));
  return new Map(rows.map((r) => [r.id, r]));
}

/** The organization's hits naming exactly the query and each candidate: by candidate, each hit's analysis, kind and status. */
export async function existingHits(db: Db, organizationId: string, queryId: string, candidateIds: readonly string[]) {
  const sets = new Map(candidateIds.map((id) => [profileSetOf([queryId, id]), id]));
  const out = new Map<string, { analysisId: string; matchKind: string; status: string }[]>();
  if (sets.size === 0) return out;
  const rows = await db
    .select({ profileSet: hits.profileSet, analysisId: hits.analysisId, matchKind: hits.matchKind, status: hits.status })
    .from(hits)
    .where(and(eq(hits.organizationId, organizationId), inArray(hits.profileSet, [...sets.keys()])));
  for (const r of rows) {
    const id = sets.get(r.profileSet)!;
    out.set(id, [...(out.get(id) ?? []), r]);
  }
  return out;
}
