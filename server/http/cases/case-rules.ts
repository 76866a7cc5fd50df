import { and, eq, inArray, or } from 'drizzle-orm';
import { canReachOrganization } from '../../../core/permissions';
import type { CaseInput } from '../../../core/schemas/cases';
import type { Db } from '../../db/database';
import { caseTypes, organizations, userOrganizations, users } from '../../db/schema';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { BadRequest, Forbidden } from '../errors';

/** Checks what a case form refers to: an organization the user reaches, a case type, users who work for that organization. */
export async function checkCaseInput(db: Db, user: AuthenticatedUser, input: CaseInput): Promise<void> {
  if (!canReachOrganization(user, input.organizationId)) throw new Forbidden('You cannot keep cases for that organization.');
  const [org] = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, input.organizationId));
  if (!org) throw new BadRequest('Choose an existing organization', [{ path: '/organizationId', message: 'No such organization' }]);
  const [type] = await db.select({ id: caseTypes.id }).from(caseTypes).where(eq(caseTypes.id, input.caseTypeId));
  if (!type) throw new BadRequest('Choose an existing case type', [{ path: '/caseTypeId', message: 'No such case type' }]);
  const wanted = [...new Set(input.assignedUserIds)];
  if (wanted.length === 0) return;
  const eligible = await eligibleUsers(db, input.organizationId, wanted);
  const missing = wanted.filter((id) => !eligible.has(id));
  if (missing.length > 0) {
    throw new BadRequest('Only users of the case’s organization can be assigned to it', [{ path: '/assignedUserIds', message: `${missing.length} user(s) do not work for that organization` }]);
  }
}

/** Users who may be assigned to a case of `organizationId`: its members and users with scope All. */
export async function eligibleUsers(db: Db, organizationId: string, among?: readonly string[]): Promise<Set<string>> {
  const member = and(eq(userOrganizations.userId, users.id), eq(userOrganizations.organizationId, organizationId));
  const rows = await db
    .selectDistinct({ id: users.id })
    .from(users)
    .leftJoin(userOrganizations, member)
    .where(and(or(eq(users.scope, 'All'), eq(userOrganizations.organizationId, organizationId)), among ? inArray(users.id, [...among]) : undefined));
  return new Set(rows.map((r) => r.id));
}
