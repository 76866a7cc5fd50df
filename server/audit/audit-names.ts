import { eq, inArray, sql, type SQL } from 'drizzle-orm';
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

/** Where a record's name lives, per table whose ids the trail's rows hold. */
const NAMED: readonly { table: PgTable; id: PgColumn; name: SQL }[] = [
  { table: users, id: users.id, name: sql<string>`coalesce(nullif(trim(${users.firstName} || ' ' || ${users.lastName}), ''), ${users.email})` },
  { table: cases, id: cases.id, name: sql<string>`${cases.caseNumber}` },
  { table: profiles, id: profiles.id, name: sql<string>`${profiles.profileId}` },
  { table: physicalItems, id: physicalItems.id, name: sql<string>`${physicalItems.itemId}` },
  { table: involvedParties, id: involvedParties.id, name: sql<string>`coalesce(nullif(${involvedParties.name}, ''), ${involvedParties.title})` },
  { table: agencyFiles, id: agencyFiles.id, name: sql<string>`${agencyFiles.fileName}` },
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
  { table: families, id: families.id, name: sql<string>`${families.name}` },
  { table: citations, id: citations.id, name: sql<string>`${citations.title}` },
  { table: taskRequests, id: taskRequests.id, name: sql<string>`${taskRequests.title}` },
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
 * An id of a deleted record has no name here; the row's own snapshot may still carry one.
 */
export async function resolveAuditNames(db: Db, rows: readonly Pick<AuditRow, 'entityId' | 'before' | 'after'>[]): Promise<Map<string, string>> {
  const ids = new Set<string>();
  for (const row of rows) for (const id of idsOfRow(row)) ids.add(id);
  const names = new Map<string, string>();
  const all = [...ids];
  for (let i = 0; i < all.length; i += CHUNK) {
    const chunk = all.slice(i, i + CHUNK);
    for (const { table, id, name } of NAMED) {
      const found = await db.select({ id: sql<string>`${id}::text`, name: name.mapWith(String) }).from(table).where(inArray(id, chunk));
      for (const r of found) if (r.name) names.set(r.id, r.name);
    }
    // A hit is named by its profiles, in role order: "S-0001 / R-0002".
    const hitRows = await db
      .select({ id: sql<string>`${hitProfiles.hitId}::text`, name: profiles.profileId })
      .from(hitProfiles)
      .innerJoin(profiles, eq(profiles.id, hitProfiles.profileId))
      .where(inArray(hitProfiles.hitId, chunk))
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
