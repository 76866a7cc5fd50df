import { count, eq, inArray } from 'drizzle-orm';
import type { Case, CaseStatus } from '../../../core/schemas/cases';
import type { Db } from '../../db/database';
import { caseAssignedUsers, caseTypes, organizations, profiles, users } from '../../db/schema';
import type { CaseRow } from './case-access';

const fullName = (u: { firstName: string; lastName: string; email: string }) => `${u.firstName} ${u.lastName}`.trim() || u.email;

/** Cases as the API returns them: names of type and organization, assigned users and profile count, in two queries each. */
export async function toCases(db: Db, rows: readonly CaseRow[]): Promise<Case[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [types, orgs, assigned, counts] = await Promise.all([
    db.select({ id: caseTypes.id, name: caseTypes.name }).from(caseTypes).where(inArray(caseTypes.id, [...new Set(rows.map((r) => r.caseTypeId))])),
    db.select({ id: organizations.id, name: organizations.name }).from(organizations).where(inArray(organizations.id, [...new Set(rows.map((r) => r.organizationId))])),
    db
      .select({ caseId: caseAssignedUsers.caseId, id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
      .from(caseAssignedUsers)
      .innerJoin(users, eq(users.id, caseAssignedUsers.userId))
      .where(inArray(caseAssignedUsers.caseId, ids))
      .orderBy(users.lastName, users.firstName),
    db.select({ caseId: profiles.caseId, n: count() }).from(profiles).where(inArray(profiles.caseId, ids)).groupBy(profiles.caseId),
  ]);
  const typeName = new Map(types.map((t) => [t.id, t.name]));
  const orgName = new Map(orgs.map((o) => [o.id, o.name]));
  const profileCount = new Map(counts.map((c) => [c.caseId, c.n]));
  return rows.map((row) => ({
    id: row.id,
    version: row.version,
    caseNumber: row.caseNumber,
    caseTypeId: row.caseTypeId,
    caseTypeName: typeName.get(row.caseTypeId) ?? '',
    organizationId: row.organizationId,
    organizationName: orgName.get(row.organizationId) ?? '',
    assignedUsers: assigned.filter((a) => a.caseId === row.id).map((a) => ({ id: a.id, name: fullName(a), email: a.email })),
    status: row.status as CaseStatus,
    notes: row.notes,
    profileCount: profileCount.get(row.id) ?? 0,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }));
}

export async function toCase(db: Db, row: CaseRow): Promise<Case> {
  return (await toCases(db, [row]))[0]!;
}
