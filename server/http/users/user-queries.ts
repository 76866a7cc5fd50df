import { and, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { ALL_ORGANIZATIONS } from '../../../core/permissions';
import type { ListQuery, ListResult } from '../../../core/schemas/list';
import type { UserRecord, UserSummary } from '../../../core/schemas/users';
import type { Db } from '../../db/database';
import { accessGroups, organizations, userOrganizations, users } from '../../db/schema';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { NotFound } from '../errors';
import { listClauses } from '../list';
import { assertReachesAny } from '../tenancy';

type UserRow = typeof users.$inferSelect;
type RoleRef = { id: string; name: string };
type OrganizationRef = { id: string; name: string };

/** Users who belong to one of `organizationIds`. */
const memberOfAny = (organizationIds: readonly string[]): SQL =>
  organizationIds.length === 0
    ? sql`false`
    : sql`exists (select 1 from ${userOrganizations} where ${and(eq(userOrganizations.userId, users.id), inArray(userOrganizations.organizationId, [...organizationIds]))})`;

/**
 * The users `actor` may see (spec 6 tenancy): everyone for scope All, otherwise those sharing one
 * of the actor's organizations; `orgId` narrows to one organization's users.
 */
function visibleUsers(actor: AuthenticatedUser, orgId: string | undefined): SQL | undefined {
  if (orgId !== undefined && orgId !== ALL_ORGANIZATIONS) return memberOfAny([orgId]);
  return actor.scope === 'All' ? undefined : memberOfAny(actor.organizationIds);
}

/** Each user's organizations, by name. */
async function organizationsOf(db: Db, userIds: readonly string[]): Promise<Map<string, OrganizationRef[]>> {
  const byUser = new Map<string, OrganizationRef[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return byUser;
  const rows = await db
    .select({ userId: userOrganizations.userId, id: organizations.id, name: organizations.name })
    .from(userOrganizations)
    .innerJoin(organizations, eq(organizations.id, userOrganizations.organizationId))
    .where(inArray(userOrganizations.userId, [...userIds]))
    .orderBy(organizations.name);
  for (const { userId, id, name } of rows) byUser.get(userId)?.push({ id, name });
  return byUser;
}

const toSummary = (row: UserRow, role: RoleRef | null, orgs: OrganizationRef[]): UserSummary => ({
  id: row.id,
  email: row.email,
  firstName: row.firstName,
  lastName: row.lastName,
  scope: row.scope === 'All' || row.scope === 'Organization' ? row.scope : null,
  organizations: orgs,
  role,
});

/** GET /api/users and GET /api/organizations/{orgId}/users: one page of the users `actor` may see. */
export async function listUsers(db: Db, actor: AuthenticatedUser, query: ListQuery, orgId?: string): Promise<ListResult<UserSummary>> {
  const clauses = listClauses(
    query,
    {
      email: { expr: users.email, sortable: true, searchable: true },
      firstName: { expr: users.firstName, sortable: true, searchable: true },
      lastName: { expr: users.lastName, sortable: true, searchable: true },
      scope: { expr: users.scope, sortable: true },
      role: { expr: accessGroups.name, sortable: true },
    },
    { scope: visibleUsers(actor, orgId), defaultSort: 'email:asc', tiebreak: users.id },
  );
  const rows = await db
    .select({ user: users, role: { id: accessGroups.id, name: accessGroups.name } })
    .from(users)
    .leftJoin(accessGroups, eq(accessGroups.id, users.accessGroupId))
    .where(clauses.where)
    .orderBy(...clauses.orderBy)
    .limit(clauses.limit)
    .offset(clauses.offset);
  const [total] = await db.select({ n: count() }).from(users).leftJoin(accessGroups, eq(accessGroups.id, users.accessGroupId)).where(clauses.where);
  const orgs = await organizationsOf(db, rows.map((r) => r.user.id));
  return { items: rows.map((r) => toSummary(r.user, r.role, orgs.get(r.user.id) ?? [])), count: total?.n ?? 0 };
}

export interface LoadedUser {
  row: UserRow;
  role: (RoleRef & { isAdmin: boolean }) | null;
  organizations: OrganizationRef[];
}

/**
 * One user with role and organizations, if `actor` may see them; a user of another organization
 * answers 404 like a missing one, so their existence is not confirmed (spec 6).
 */
export async function findVisibleUser(db: Db, actor: AuthenticatedUser, id: string): Promise<LoadedUser> {
  const [found] = await db
    .select({ user: users, role: { id: accessGroups.id, name: accessGroups.name, isAdmin: accessGroups.isAdmin } })
    .from(users)
    .leftJoin(accessGroups, eq(accessGroups.id, users.accessGroupId))
    .where(eq(users.id, id));
  if (!found) throw new NotFound(`No user with id ${id}`);
  const orgs = (await organizationsOf(db, [id])).get(id) ?? [];
  assertReachesAny(actor, orgs.map((o) => o.id), 'user', id);
  return { row: found.user, role: found.role, organizations: orgs };
}

export const toUserRecord = ({ row, role, organizations: orgs }: LoadedUser): UserRecord => ({
  ...toSummary(row, role && { id: role.id, name: role.name }, orgs),
  lockedOut: row.lockedAt !== null,
  receiveNotifications: row.receiveNotifications,
  hasPassword: row.passwordHash !== null,
  version: row.version,
  createdAt: row.createdAt.toISOString(),
});
