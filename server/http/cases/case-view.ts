import { getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import type { Case, CaseStatus } from '../../../core/schemas/cases';
import type { Db } from '../../db/database';
import { caseAssignedUsers, cases, caseTypes, organizations, profiles, users } from '../../db/schema';
import type { CaseRow } from './case-access';

const fullName = (u: { firstName: string; lastName: string; email: string }) => `${u.firstName} ${u.lastName}`.trim() || u.email;

type AssignedUser = { id: string; firstName: string; lastName: string; email: string };

/**
 * What a case shows besides its own columns, read in the same statement as the case (issue 29: four more statements
 * a page, each a turn of PGlite's one connection): its type's and organization's names, its assigned users (by last
 * name, then first name) and how many profiles it holds.
 */
// Written with the outer case's columns qualified: in a select of one table Drizzle names its columns bare, which inside
// a subquery would name the subquery's own table.
const shownNames = {
  caseTypeName: sql<string | null>`(select t.name from ${caseTypes} t where t.id = ${cases}.case_type_id)`,
  organizationName: sql<string | null>`(select o.name from ${organizations} o where o.id = ${cases}.organization_id)`,
  assignedUsers: sql<AssignedUser[]>`coalesce((select json_agg(json_build_object('id', u.id, 'firstName', u.first_name, 'lastName', u.last_name, 'email', u.email) order by u.last_name, u.first_name)
    from ${caseAssignedUsers} a join ${users} u on u.id = a.user_id where a.case_id = ${cases}.id), '[]'::json)`,
  profileCount: sql<number>`(select count(*)::int from ${profiles} p where p.case_id = ${cases}.id)`,
};

type ShownNames = { caseTypeName: string | null; organizationName: string | null; assignedUsers: AssignedUser[]; profileCount: number };

function toCaseView(row: CaseRow, names: ShownNames | undefined): Case {
  return {
    id: row.id,
    version: row.version,
    caseNumber: row.caseNumber,
    caseTypeId: row.caseTypeId,
    caseTypeName: names?.caseTypeName ?? '',
    organizationId: row.organizationId,
    organizationName: names?.organizationName ?? '',
    assignedUsers: (names?.assignedUsers ?? []).map((a) => ({ id: a.id, name: fullName(a), email: a.email })),
    status: row.status as CaseStatus,
    notes: row.notes,
    profileCount: names?.profileCount ?? 0,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Cases as the API returns them, in one statement: those `where` selects, sorted by `orderBy`. */
export async function readCases(db: Db, where: SQL | undefined, orderBy: SQL[] = []): Promise<Case[]> {
  const rows = await db.select({ row: getTableColumns(cases), ...shownNames }).from(cases).where(where).orderBy(...orderBy);
  return rows.map(({ row, ...names }) => toCaseView(row, names));
}

/** Cases as the API returns them from rows in hand (a transaction's before and after), their names read in one statement. */
export async function toCases(db: Db, rows: readonly CaseRow[]): Promise<Case[]> {
  if (rows.length === 0) return [];
  const names = new Map((await db.select({ id: cases.id, ...shownNames }).from(cases).where(inArray(cases.id, rows.map((r) => r.id)))).map(({ id, ...n }) => [id, n]));
  return rows.map((row) => toCaseView(row, names.get(row.id)));
}

export async function toCase(db: Db, row: CaseRow): Promise<Case> {
  return (await toCases(db, [row]))[0]!;
}
