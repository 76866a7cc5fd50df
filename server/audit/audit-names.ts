import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { isGuid } from '../../core/audit/audit-values';
import type { Db } from '../db/database';
import {
  accessGroups,
  agencyFiles,
  analyses,
  analysisGroups,
  auditLog,
  cases,
  caseTypes,
  chemistries,
  citations,
  families,
  hitProfiles,
  involvedParties,
  laboratories,
  markers,
  organizations,
  physicalItems,
  populations,
  profiles,
  sampleSources,
  searchRules,
  taskRequests,
  users,
} from '../db/schema';

type AuditRow = typeof auditLog.$inferSelect;

/** Who reads the trail: the organizations whose records it may name (issue 30), or 'all' for scope All. */
export type AuditReader = { organizationIds: readonly string[] | 'all' };

const caseOrganization = (caseId: PgColumn): SQL => sql`(select ${cases.organizationId} from ${cases} where ${cases.id} = ${caseId})`;

/**
 * Where a record's name lives, per table whose ids the trail's rows hold; `organization`, for records of one
 * organization, so a reader of another is never told their names.
 */
const NAMED: readonly { table: PgTable; id: PgColumn; name: SQL; organization?: SQL }[] = [
  { table: users, id: users.id, name: sql<string>`coalesce(nullif(trim(${users.firstName} || ' ' || ${users.lastName}), ''), ${users.email})` },
  { table: cases, id: cases.id, name: sql<string>`${cases.caseNumber}`, organization: sql`${cases.organizationId}` },
  { table: profiles, id: profiles.id, name: sql<string>`${profiles.profileId}`, organization: sql`${profiles.organizationId}` },
  { table: physicalItems, id: physicalItems.id, name: sql<string>`${physicalItems.itemId}`, organization: caseOrganization(physicalItems.caseId) },
  { table: involvedParties, id: involvedParties.id, name: sql<string>`coalesce(nullif(${involvedParties.name}, ''), ${involvedParties.title})`, organization: caseOrganization(involvedParties.caseId) },
  { table: agencyFiles, id: agencyFiles.id, name: sql<string>`${agencyFiles.fileName}`, organization: caseOrganization(agencyFiles.caseId) },
  { table: organizations, id: organizations.id, name: sql<string>`${organizations.name}` },
  { table: caseTypes, id: caseTypes.id, name: sql<string>`${caseTypes.name}` },
  { table: sampleSources, id: sampleSources.id, name: sql<string>`${sampleSources.name}` },
  { table: laboratories, id: laboratories.id, name: sql<string>`${laboratories.name}` },
  { table: chemistries, id: chemistries.id, name: sql<string>`${chemistries.name}` },
  { table: markers, id: markers.id, name: sql<string>`${markers.name}` },
  { table: populations, id: populations.id, name: sql<string>`${populations.name}` },
  { table: analyses, id: analyses.id, name: sql<string>`${analyses.name}` },
  { table: analysisGroups, id: analysisGroups.id, name: sql<string>`${analysisGroups.name}` },
  { table: accessGroups, id: accessGroups.id, name: sql<string>`${accessGroups.name}` },
  { table: searchRules, id: searchRules.id, name: sql<string>`${searchRules.name}` },
  { table: families, id: families.id, name: sql<string>`${families.name}`, organization: sql`${families.organizationId}` },
  { table: citations, id: citations.id, name: sql<string>`${citations.title}` },
  { table: taskRequests, id: taskRequests.id, name: sql<string>`${taskRequests.title}`, organization: sql`${taskRequests.organizationId}` },
];

/** Ids per IN list: well under the parameter limit of PostgreSQL's protocol. */
const CHUNK = 1000;

/** Every GUID a value holds, at any depth. */
function collectGuids(value: unknown, into: Set<string>): void {
  if (isGuid(value)) into.add(value.toLowerCase());
  else if (Array.isArray(value)) for (const v of value) collectGuids(v, into);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) collectGuids(v, into);
}

/** The ids one row refers to: its record and every id in its states before and after. */
export function idsOfRow(row: Pick<AuditRow, 'entityId' | 'before' | 'after'>): Set<string> {
  const ids = new Set<string>();
  collectGuids(row.entityId, ids);
  collectGuids(row.before, ids);
  collectGuids(row.after, ids);
  return ids;
}

/**
 * The names of the records the rows' ids stand for (issue 18: no GUIDs where a name exists): users by
 * their name, cases by number, profiles by sample name, reference data by name, a hit by its profiles.
 * An id of a deleted record has no name here; the row's own snapshot may still carry one. A record of an
 * organization `reader` may not read is not named (ARCHITECTURE.md "Audit": a row names only what its readers may read).
 */
export async function resolveAuditNames(db: Db, rows: readonly Pick<AuditRow, 'entityId' | 'before' | 'after'>[], reader: AuditReader): Promise<Map<string, string>> {
  const readable = (organization: SQL | undefined): SQL | undefined =>
    organization === undefined || reader.organizationIds === 'all'
      ? undefined
      : reader.organizationIds.length === 0
        ? sql`false`
        : sql`${organization} in (${sql.join(reader.organizationIds.map((id) => sql`${id}::uuid`), sql`, `)})`;
  const ids = new Set<string>();
  for (const row of rows) for (const id of idsOfRow(row)) ids.add(id);
  const names = new Map<string, string>();
  const all = [...ids];
  for (let i = 0; i < all.length; i += CHUNK) {
    const chunk = all.slice(i, i + CHUNK);
    for (const { table, id, name, organization } of NAMED) {
      const found = await db.select({ id: sql<string>`${id}::text`, name: name.mapWith(String) }).from(table).where(and(inArray(id, chunk), readable(organization)));
      for (const r of found) if (r.name) names.set(r.id, r.name);
    }
    // A hit is named by its profiles, in role order: "S-0001 / R-0002".
    const hitRows = await db
      .select({ id: sql<string>`${hitProfiles.hitId}::text`, name: profiles.profileId })
      .from(hitProfiles)
      .innerJoin(profiles, eq(profiles.id, hitProfiles.profileId))
      .where(and(inArray(hitProfiles.hitId, chunk), readable(sql`${profiles.organizationId}`)))
      .orderBy(hitProfiles.hitId, hitProfiles.position);
    const hits = new Map<string, string[]>();
    for (const r of hitRows) hits.set(r.id, [...(hits.get(r.id) ?? []), r.name]);
    for (const [id, profileNames] of hits) names.set(id, profileNames.join(' / '));
  }
  return names;
}

/** The names one row needs, out of a map resolved for many. */
export function namesOfRow(row: Pick<AuditRow, 'entityId' | 'before' | 'after'>, names: ReadonlyMap<string, string>): Record<string, string> {
  const own: Record<string, string> = {};
  for (const id of idsOfRow(row)) {
    const name = names.get(id);
    if (name !== undefined) own[id] = name;
  }
  return own;
}
