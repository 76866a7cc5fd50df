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

/** A role's name, whether it administers, and its grants as (entity, verb) pairs. */
interface GroupGrants {
  name: string;
  isAdmin: boolean;
  grants: [string, string][];
}

/**
 * The user's role, scope and organizations as this server's database holds them (never the token's). Read in one
 * statement, as every request does (issue 29: on PGlite each statement is a round trip to the database thread, and
 * the role, its grants and the organizations were three of a list page's seven).
 */
export async function loadPrincipal(db: Db, user: UserRow): Promise<AuthenticatedUser> {
  const groupId = user.accessGroupId ?? null;
  const result = (await db.execute(sql`
    select
      (select json_build_object(
          'name', ${accessGroups.name},
          'isAdmin', ${accessGroups.isAdmin},
          'grants', coalesce((select json_agg(json_build_array(${accessGroupPermissions.entity}, ${accessGroupPermissions.verb}))
                              from ${accessGroupPermissions} where ${accessGroupPermissions.accessGroupId} = ${accessGroups.id}), '[]'::json))
        from ${accessGroups} where ${accessGroups.id} = ${groupId}::uuid) as "group",
      coalesce((select json_agg(json_build_object('id', ${organizations.id}, 'name', ${organizations.name}) order by ${organizations.name})
                from ${userOrganizations} join ${organizations} on ${organizations.id} = ${userOrganizations.organizationId}
                where ${userOrganizations.userId} = ${user.id}::uuid), '[]'::json) as "organizations"`)) as unknown as {
    rows: { group: GroupGrants | null; organizations: { id: string; name: string }[] }[];
  };
  // json arrives parsed, from node-postgres and PGlite alike.
  const { group, organizations: orgs } = result.rows[0]!;
  const permissions: PermissionMatrix = {};
  for (const [entity, verb] of group?.grants ?? []) {
    if (!ENTITIES.includes(entity as Entity) || !VERBS.includes(verb as Verb)) continue;
    permissions[entity as Entity] = [...(permissions[entity as Entity] ?? []), verb as Verb];
  }
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
