import { and, asc, desc, eq, inArray, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { hitProbabilityText } from '../../../core/hit-weighing';
import { HIT_STATUSES, type HitListQuery, type HitProfile, type HitStatus, type HitSummary, type Hit } from '../../../core/schemas/hits';
import type { ListResult } from '../../../core/schemas/list';
import { ALL_ORGANIZATIONS } from '../../../core/permissions';
import type { Db } from '../../db/database';
import { countedRows } from '../../db/row-counts';
import { analyses, cases, families, hitProfiles, hits, populations, profiles, searchRules } from '../../db/schema';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { NotFound } from '../errors';
import { containsPattern, countList, matchNamedRows, namedIdsMatch, LIST_TUNING, listClauses, planPage, valuesContaining, type ListColumn, type ListTuning, type NamedIds } from '../list';
import { pageRows, type ListScope } from '../list-page';
import { searchedTexts } from '../profiles/profile-query';
import { inReachableOrganizations, reachableOrganizations } from '../tenancy';

/**
 * A hit's profiles in their positions, each with its sample name, case and organization, read with the hit: a
 * statement of their own was one more turn of PGlite's one connection on every list page (issue 29).
 */
const profilesOfHit = sql<HitProfile[]>`coalesce((select json_agg(json_build_object('role', hp.role, 'position', hp.position, 'profileId', p.id, 'sampleName', p.profile_id, 'caseId', c.id, 'caseNumber', c.case_number, 'organizationId', p.organization_id, 'enteredById', p.entered_by) order by hp.position)
  from ${hitProfiles} hp join ${profiles} p on p.id = hp.profile_id join ${cases} c on c.id = p.case_id where hp.hit_id = ${hits}.id), '[]'::json)`;

const fields = { hit: hits, analysisName: analyses.name, populationName: populations.name, populationSynthetic: populations.synthetic, searchRuleName: searchRules.name, familyName: families.name, profiles: profilesOfHit };

/** Hits joined with the names a list shows; `where` may use any joined column. */
const selectHits = (db: Db) =>
  db
    .select(fields)
    .from(hits)
    .innerJoin(analyses, eq(analyses.id, hits.analysisId))
    .leftJoin(populations, eq(populations.id, hits.populationId))
    .leftJoin(searchRules, eq(searchRules.id, hits.searchRuleId))
    .leftJoin(families, eq(families.id, hits.familyId));

type HitJoinedRow = Awaited<ReturnType<ReturnType<typeof selectHits>['execute']>>[number];

/** A name of the row `fk` points at, lowercased, as one value per hit (the list's id query reads hits alone). */
const nameOf = (column: SQLWrapper, table: SQLWrapper, id: SQLWrapper, fk: SQLWrapper) => sql`(select lower(${column}) from ${table} where ${id} = ${fk})`;

/**
 * Hits naming a profile whose sample name or case number contains the text: the profiles and cases found by
 * their trigram indexes (migration 0009), their hits by hit_profiles_profile_idx, evaluated once per query.
 * (Issue 15: a per-hit subquery joined every hit's profiles and cases, 144,607 times for one search: 3.5–4.1 s.)
 */
const hitsNamingProfilesLike = (text: string): SQL => {
  const pattern = containsPattern(text);
  return sql`${hits.id} = any(array(select hp.hit_id from ${hitProfiles} hp where hp.profile_id = any(array(
    select p.id from ${profiles} p where p.profile_id ilike ${pattern}
    union select p.id from ${profiles} p where p.case_id = any(array(select c.id from ${cases} c where c.case_number ilike ${pattern}))))))`;
};

/** The small named tables a hit refers to by id, searched by name (list.ts matchNamedRows). */
const HIT_NAMED_TABLES = {
  analysis: { table: analyses, id: analyses.id, name: analyses.name },
  searchRule: { table: searchRules, id: searchRules.id, name: searchRules.name },
  population: { table: populations, id: populations.id, name: populations.name },
};
/** The ids of the analyses, search rules and populations whose names contain a text. */
type HitNamed = keyof typeof HIT_NAMED_TABLES;
type NamedMatches = Record<HitNamed, NamedIds>;

/** The strength a hit list sorts by: the combined index, else the share of non-excluding markers (exclusion hits). Indexed by hits_list_strength_idx. */
const strength = sql`coalesce(${hits.combinedIndex}, ${hits.nonExclusionMarkerCount}::float / nullif(${hits.markerCount}, 0))`;

/**
 * Columns of spec 2.4 (Date, Analysis, Probability, Population, Profiles) plus status, as expressions over the
 * hits table alone (the list pages hit ids first, then joins the names of that page). Each searchable column
 * matches through an index: named tables by ids looked up first, Profiles by trigram indexes, status by value.
 */
function hitListColumns(named: Map<string, NamedMatches>): Record<string, ListColumn> {
  const inIds = (column: SQLWrapper, kind: HitNamed) => (text: string) => namedIdsMatch(column, HIT_NAMED_TABLES[kind], named.get(text)?.[kind], text);
  return {
    date: { expr: hits.createdAt, sortable: true },
    analysisName: { expr: nameOf(analyses.name, analyses, analyses.id, hits.analysisId), sortable: true, searchable: true, matches: inIds(hits.analysisId, 'analysis') },
    // Sorting by probability orders by the combined index, then by non-exclusions for exclusion hits.
    probability: { expr: strength, sortable: true },
    expectedChanceHits: { expr: hits.expectedChanceHits, sortable: true },
    searchRuleName: {
      expr: nameOf(searchRules.name, searchRules, searchRules.id, hits.searchRuleId),
      sortable: true,
      searchable: true,
      matches: inIds(hits.searchRuleId, 'searchRule'),
    },
    populationName: {
      expr: nameOf(populations.name, populations, populations.id, hits.populationId),
      sortable: true,
      searchable: true,
      matches: inIds(hits.populationId, 'population'),
    },
    profiles: { expr: sql`''`, searchable: true, matches: hitsNamingProfilesLike },
    status: { expr: hits.status, sortable: true, searchable: true, matches: (text) => { const values = valuesContaining(HIT_STATUSES, text); return values.length > 0 ? inArray(hits.status, values) : undefined; } },
    updatedAt: { expr: hits.updatedAt, sortable: true },
  };
}

/** The hits the user may see: those of an organization they reach (spec 6, ARCHITECTURE.md "tenancy"). */
export const reachableHits = (user: AuthenticatedUser): SQL | undefined => inReachableOrganizations(hits.organizationId, user);

/** Hits naming a profile of the case. */
export const hitsOfCase = (db: Db, caseId: string): SQL =>
  inArray(hits.id, db.select({ id: hitProfiles.hitId }).from(hitProfiles).innerJoin(profiles, eq(profiles.id, hitProfiles.profileId)).where(eq(profiles.caseId, caseId)));

/** Hits naming the profile. */
export const hitsOfProfile = (db: Db, profileId: string): SQL => inArray(hits.id, db.select({ id: hitProfiles.hitId }).from(hitProfiles).where(eq(hitProfiles.profileId, profileId)));

function toSummary(row: HitJoinedRow): HitSummary {
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
    probability: hitProbabilityText({ matchKind: h.matchKind, combinedIndex: h.combinedIndex, markerCount: h.markerCount, nonExclusionMarkerCount: h.nonExclusionMarkerCount, figures: h.figures ?? null }),
    profiles: row.profiles,
    searchRuleId: h.searchRuleId,
    searchRuleName: row.searchRuleName,
    familyId: h.familyId,
    familyName: row.familyName,
    matchKind: h.matchKind as HitSummary['matchKind'],
    expectedChanceHits: h.expectedChanceHits,
    pValue: h.pValue,
    synthetic: row.populationSynthetic === true || (h.figures?.populations.some((p) => p.synthetic) ?? false),
    figures: h.figures ?? null,
  };
}

/**
 * A page of hits: `scope` (tenancy and which organization, case or profile) and `status` (null: all) narrow it.
 * As the profile list (server/http/profiles/list-routes.ts): the page's ids from the hits table alone, in the
 * list's order, then the names of that page (list-page.ts). The default, strongest first, reads an index backwards
 * without visiting the table: one organization's hits_list_organization_status_strength_idx or
 * hits_list_organization_strength_idx (migration 0018), else hits_list_status_strength_idx or hits_list_strength_idx
 * (0009, 0010). An organization scope's count comes from row_counts (exact); another's is exact up to
 * EXACT_COUNT_LIMIT matching hits or at the list's end, else an estimate (`estimated`).
 */
export async function listHits(db: Db, query: HitListQuery, scope: ListScope, status: HitStatus | null, tuning: ListTuning = LIST_TUNING): Promise<ListResult<HitSummary> & { estimated?: true }> {
  const where = and(scope.where, status ? eq(hits.status, status) : undefined);
  const named = await matchNamedRows(db, searchedTexts(query), HIT_NAMED_TABLES);
  // Strongest first (ARCHITECTURE.md "Hits"): the combined index, then the newest.
  const clauses = listClauses(query, hitListColumns(named), { scope: where, defaultSort: 'probability:desc', thenBy: { expr: hits.createdAt, direction: 'desc' }, tiebreak: hits.id });
  const known = scope.organizations && !clauses.narrowed ? await countedRows(db, 'hits', scope.organizations, status ? [status] : undefined) : undefined;
  const page = await planPage(db, sql`${hits}`, clauses, tuning, known);
  const rows = await pageRows(
    page,
    hits.id,
    db.select({ id: hits.id }).from(hits).where(clauses.where).orderBy(...page.orderBy).limit(page.limit).offset(page.offset),
    (onPage, orderBy) => selectHits(db).where(onPage).orderBy(...orderBy),
  );
  const counted = await countList(db, sql`${hits}`, clauses.where, { offset: clauses.offset, pageSize: clauses.limit, returned: rows.length, total: page.total }, tuning);
  return { items: rows.map(toSummary), ...counted };
}

/**
 * The hits of the organizations the user reaches (spec 6), of one of them unless `orgId` is `all`: counted by
 * row_counts. The route's access check has made sure the user reaches `orgId`; the tenancy condition stays anyway.
 */
export function organizationHitScope(user: AuthenticatedUser, orgId: string): ListScope {
  const reachable = reachableOrganizations(user);
  if (orgId === ALL_ORGANIZATIONS) return { where: reachableHits(user), organizations: reachable };
  return { where: and(reachableHits(user), eq(hits.organizationId, orgId)), organizations: reachable === 'all' || reachable.includes(orgId) ? [orgId] : [] };
}

/** One hit the user may see, as the API shows it; another organization's hit answers 404 (its existence is not confirmed). */
export async function findVisibleHit(db: Db, user: AuthenticatedUser, id: string): Promise<Hit> {
  const [row] = await selectHits(db).where(and(eq(hits.id, id), reachableHits(user)));
  if (!row) throw new NotFound(`No hit with id ${id}`);
  return { ...toSummary(row), comments: row.hit.comments, updatedAt: row.hit.updatedAt.toISOString() };
}
