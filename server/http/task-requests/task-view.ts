import { inArray } from 'drizzle-orm';
import type { TaskRequest, TaskStatus } from '../../../core/schemas/task-requests';
import type { Db } from '../../db/database';
import { cases, organizations, users } from '../../db/schema';
import { personName } from './members';
import type { TaskRequestRow } from './task-access';

const idsOf = (values: readonly (string | null)[]) => [...new Set(values.filter((v): v is string => v !== null))];

/** Task requests as the API returns them: names of organization, people and case, in three queries. */
export async function toTaskRequests(db: Db, rows: readonly TaskRequestRow[]): Promise<TaskRequest[]> {
  if (rows.length === 0) return [];
  const personIds = idsOf(rows.flatMap((r) => [r.requestedBy, r.assignedTo]));
  const caseIds = idsOf(rows.map((r) => r.caseId));
  const [orgs, people, caseRows] = await Promise.all([
    db.select({ id: organizations.id, name: organizations.name }).from(organizations).where(inArray(organizations.id, idsOf(rows.map((r) => r.organizationId)))),
    personIds.length === 0 ? [] : db.select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email }).from(users).where(inArray(users.id, personIds)),
    caseIds.length === 0 ? [] : db.select({ id: cases.id, caseNumber: cases.caseNumber }).from(cases).where(inArray(cases.id, caseIds)),
  ]);
  const orgName = new Map(orgs.map((o) => [o.id, o.name]));
  const person = new Map(people.map((p) => [p.id, { id: p.id, name: personName(p) }]));
  const caseOf = new Map(caseRows.map((c) => [c.id, c]));
  return rows.map((row) => ({
    id: row.id,
    version: row.version,
    organizationId: row.organizationId,
    organizationName: orgName.get(row.organizationId) ?? '',
    title: row.title,
    description: row.description,
    status: row.status as TaskStatus,
    requestedBy: (row.requestedBy && person.get(row.requestedBy)) || null,
    assignedTo: (row.assignedTo && person.get(row.assignedTo)) || null,
    case: (row.caseId && caseOf.get(row.caseId)) || null,
    dueDate: row.dueDate,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }));
}

export async function toTaskRequest(db: Db, row: TaskRequestRow): Promise<TaskRequest> {
  return (await toTaskRequests(db, [row]))[0]!;
}
