import { and, eq, isNull, sql } from 'drizzle-orm';
import { ENTITIES, SCOPES, VERBS, type Entity, type PermissionMatrix, type Scope, type Verb } from '../../core/permissions';
import type { SignedInUser } from '../../core/claims';
import type { Db } from '../db/database';
import { accessGroupPermissions, accessGroups, organizations, userOrganizations, users } from '../db/schema';

export interface AuthenticatedUser extends SignedInUser {
  email: string;
  firstName: string;
  lastName: string;
  lockedAt: Date | null;
  licensesAcceptedAt: Date | null;
  organizations: { id: string; name: string }[];
  /** Set when a service client's token (client credentials, issue 32) is the caller, not a person. */
  service?: { serviceClientId: string; clientId: string; name: string; organizationId: string | null };
}

type UserRow = typeof users.$inferSelect;

/** Finds the user a token's subject names: the user id (embedded) or the external subject, else the e-mail. */
export async function findUserForSubject(
  db: Db,
  token: { subject: string; email?: string },
  mode: 'embedded' | 'external',
): Promise<UserRow | undefined> {
  if (mode === 'embedded') {
    const isUuid = /^[0-9a-f-]{36}$/i.test(token.subject);
    if (!isUuid) return undefined;
    const [row] = await db.select().from(users).where(eq(users.id, token.subject));
    return row;
  }
  const [bySubject] = await db.select().from(users).where(eq(users.externalSubject, token.subject));
  if (bySubject) return bySubject;
  if (!token.email) return undefined;
  // First sign-in through the external provider: bind its subject to the user with that e-mail.
  const [byEmail] = await db
    .update(users)
    .set({ externalSubject: token.subject })
    .where(and(sql`lower(${users.email}) = lower(${token.email})`, isNull(users.externalSubject)))
    .returning();
  return byEmail;
}

/** The user's role, scope and organizations as this server's database holds them (never the token's). */
export async function loadPrincipal(db: Db, user: UserRow): Promise<AuthenticatedUser> {
  const [group] = user.accessGroupId
    ? await db.select().from(accessGroups).where(eq(accessGroups.id, user.accessGroupId))
    : [];
  const grants = group
    ? await db.select().from(accessGroupPermissions).where(eq(accessGroupPermissions.accessGroupId, group.id))
    : [];
  const permissions: PermissionMatrix = {};
  for (const { entity, verb } of grants) {
    if (!ENTITIES.includes(entity as Entity) || !VERBS.includes(verb as Verb)) continue;
    permissions[entity as Entity] = [...(permissions[entity as Entity] ?? []), verb as Verb];
  }
  const orgs = await db
    .select({ id: organizations.id, name: organizations.name })
    .from(userOrganizations)
    .innerJoin(organizations, eq(organizations.id, userOrganizations.organizationId))
    .where(eq(userOrganizations.userId, user.id))
    .orderBy(organizations.name);
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    roleName: group?.name ?? '',
    isAdmin: group?.isAdmin ?? false,
    scope: SCOPES.includes(user.scope as Scope) ? (user.scope as Scope) : null,
    organizationIds: orgs.map((o) => o.id),
    organizations: orgs,
    permissions,
    lockedAt: user.lockedAt,
    licensesAcceptedAt: user.licensesAcceptedAt,
  };
}
