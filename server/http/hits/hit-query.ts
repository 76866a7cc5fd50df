import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { formatHitProbability } from '../../../core/probability-display';
import type { HitListQuery, HitProfile, HitStatus, HitSummary, Hit } from '../../../core/schemas/hits';
import type { ListResult } from '../../../core/schemas/list';
import type { Db } from '../../db/database';
import { analyses, cases, hitProfiles, hits, populations, profiles, searchRules } from '../../db/schema';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { NotFound } from '../errors';
import { listClauses, type ListColumn } from '../list';
import { inReachableOrganizations } from '../tenancy';

const fields = { hit: hits, analysisName: analyses.name, populationName: populations.name, populationSynthetic: populations.synthetic, searchRuleName: searchRules.name };

/** Hits joined with the names a list shows; `where` may use any joined column. */
const selectHits = (db: Db) =>
  db
    .select(fields)
    .from(hits)
    .innerJoin(analyses, eq(analyses.id, hits.analysisId))
    .leftJoin(populations, eq(populations.id, hits.populationId))
    .leftJoin(searchRules, eq(searchRules.id, hits.searchRuleId));

type HitJoinedRow = Awaited<ReturnType<ReturnType<typeof selectHits>['execute']>>[number];

/** The hit's sample names and case numbers as one text, for search and the Profiles filter. */
const profilesText = sql`(select string_agg(p.profile_id || ' ' || c.case_number, ' ') from ${hitProfiles} hp join ${profiles} p on p.id = hp.profile_id join ${cases} c on c.id = p.case_id where hp.hit_id = ${hits.id})`;

/** Columns of spec 2.4 (Date, Analysis, Probability, Population, Profiles) plus status. */
const HIT_LIST_COLUMNS: Record<string, ListColumn> = {
  date: { expr: hits.createdAt, sortable: true },
  analysisName: { expr: sql`lower(${analyses.name})`, sortable: true, searchable: true },
  // Sorting by probability orders by the combined index, then by non-exclusions for exclusion hits.
  probability: { expr: sql`coalesce(${hits.combinedIndex}, ${hits.nonExclusionMarkerCount}::float / nullif(${hits.markerCount}, 0))`, sortable: true },
  expectedChanceHits: { expr: hits.expectedChanceHits, sortable: true },
  searchRuleName: { expr: sql`lower(${searchRules.name})`, sortable: true, searchable: true },
  populationName: { expr: sql`lower(${populations.name})`, sortable: true, searchable: true },
  profiles: { expr: profilesText, searchable: true },
  status: { expr: hits.status, sortable: true, searchable: true },
  updatedAt: { expr: hits.updatedAt, sortable: true },
};

/** The hits the user may see: those of an organization they reach (spec 6, ARCHITECTURE.md "tenancy"). */
export const reachableHits = (user: AuthenticatedUser): SQL | undefined => inReachableOrganizations(hits.organizationId, user);

/** Hits naming a profile of the case. */
export const hitsOfCase = (db: Db, caseId: string): SQL =>
  inArray(hits.id, db.select({ id: hitProfiles.hitId }).from(hitProfiles).innerJoin(profiles, eq(profiles.id, hitProfiles.profileId)).where(eq(profiles.caseId, caseId)));

/** Hits naming the profile. */
export const hitsOfProfile = (db: Db, profileId: string): SQL => inArray(hits.id, db.select({ id: hitProfiles.hitId }).from(hitProfiles).where(eq(hitProfiles.profileId, profileId)));

/** The profiles of the given hits in role order, with their sample names and case numbers. */
export async function loadHitProfiles(db: Db, hitIds: readonly string[]): Promise<Map<string, HitProfile[]>> {
  const byHit = new Map<string, HitProfile[]>(hitIds.map((id) => [id, []]));
  if (hitIds.length === 0) return byHit;
  const rows = await db
    .select({ hitId: hitProfiles.hitId, role: hitProfiles.role, position: hitProfiles.position, profileId: profiles.id, sampleName: profiles.profileId, caseId: cases.id, caseNumber: cases.caseNumber, organizationId: profiles.organizationId })
    .from(hitProfiles)
    .innerJoin(profiles, eq(profiles.id, hitProfiles.profileId))
    .innerJoin(cases, eq(cases.id, profiles.caseId))
    .where(inArray(hitProfiles.hitId, [...hitIds]))
    .orderBy(asc(hitProfiles.hitId), asc(hitProfiles.position));
  for (const { hitId, ...profile } of rows) byHit.get(hitId)!.push(profile);
  return byHit;
}

function toSummary(row: HitJoinedRow, hitProfileRows: HitProfile[]): HitSummary {
  const h = row.hit;
  return {
    id: h.id,
    version: h.version,
    organizationId: h.organizationId,
    status: h.status as HitStatus,
    date: h.createdAt.toISOString(),
    analysisId: h.analysisId,
    analysisName: row.analysisName,
    populationId: h.populationId,
    populationName: row.populationName,
    combinedIndex: h.combinedIndex,
    markerCount: h.markerCount,
    nonExclusionMarkerCount: h.nonExclusionMarkerCount,
    probability: formatHitProbability({ combinedIndex: h.combinedIndex, markerCount: h.markerCount, nonExclusionMarkerCount: h.nonExclusionMarkerCount ?? 0 }),
    profiles: hitProfileRows,
    searchRuleId: h.searchRuleId,
    searchRuleName: row.searchRuleName,
    matchKind: h.matchKind as HitSummary['matchKind'],
    expectedChanceHits: h.expectedChanceHits,
    pValue: h.pValue,
    synthetic: row.populationSynthetic === true || (h.figures?.populations.some((p) => p.synthetic) ?? false),
    figures: h.figures ?? null,
  };
}

/** A page of hits: `scope` (tenancy and which organization, case or profile) and `status` (null: all) narrow it. */
export async function listHits(db: Db, query: HitListQuery, scope: SQL | undefined, status: HitStatus | null): Promise<ListResult<HitSummary>> {
  const where = and(scope, status ? eq(hits.status, status) : undefined);
  // Strongest first (ARCHITECTURE.md "Hits"): the combined index, then the newest.
  const clauses = listClauses(query, HIT_LIST_COLUMNS, { scope: where, defaultSort: 'probability:desc', thenBy: desc(hits.createdAt), tiebreak: hits.id });
  const rows = await selectHits(db).where(clauses.where).orderBy(...clauses.orderBy).limit(clauses.limit).offset(clauses.offset);
  const [total] = await db
    .select({ n: count() })
    .from(hits)
    .innerJoin(analyses, eq(analyses.id, hits.analysisId))
    .leftJoin(populations, eq(populations.id, hits.populationId))
    .leftJoin(searchRules, eq(searchRules.id, hits.searchRuleId))
    .where(clauses.where);
  const named = await loadHitProfiles(db, rows.map((r) => r.hit.id));
  return { items: rows.map((r) => toSummary(r, named.get(r.hit.id)!)), count: total?.n ?? 0 };
}

/** One hit the user may see, as the API shows it; another organization's hit answers 404 (its existence is not confirmed). */
export async function findVisibleHit(db: Db, user: AuthenticatedUser, id: string): Promise<Hit> {
  const [row] = await selectHits(db).where(and(eq(hits.id, id), reachableHits(user)));
  if (!row) throw new NotFound(`No hit with id ${id}`);
  const named = await loadHitProfiles(db, [id]);
  return { ...toSummary(row, named.get(id)!), comments: row.hit.comments, updatedAt: row.hit.updatedAt.toISOString() };
}
