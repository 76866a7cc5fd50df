import { and, asc, eq, isNull } from 'drizzle-orm';
import type { OrganizationMember } from '../../../core/schemas/task-requests';
import type { Db } from '../../db/database';
import { accessGroups, userOrganizations, users } from '../../db/schema';

export const personName = (u: { firstName: string; lastName: string; email: string }) => `${u.firstName} ${u.lastName}`.trim() || u.email;

/** The organization's users who can take work: its members, not locked out, by name. */
export async function activeMembers(db: Db, organizationId: string): Promise<OrganizationMember[]> {
  const rows = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email, roleName: accessGroups.name })
    .from(userOrganizations)
    .innerJoin(users, eq(users.id, userOrganizations.userId))
    .leftJoin(accessGroups, eq(accessGroups.id, users.accessGroupId))
    .where(and(eq(userOrganizations.organizationId, organizationId), isNull(users.lockedAt)))
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.email));
  return rows.map((u) => ({ id: u.id, name: personName(u), email: u.email, roleName: u.roleName }));
}
