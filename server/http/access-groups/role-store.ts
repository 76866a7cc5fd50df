import { count, eq } from 'drizzle-orm';
import { ENTITIES, VERBS } from '../../../core/permissions';
import type { AccessGroup, AccessGroupInput, PermissionGrants } from '../../../core/schemas/access-groups';
import type { Db } from '../../db/database';
import { accessGroupPermissions, accessGroups, users } from '../../db/schema';
import { nameList } from '../reference-lists/routes';

type RoleRow = typeof accessGroups.$inferSelect;

/** A role's grant rows, in ENTITIES × VERBS order so the response reads like the matrix. */
export async function grantsOf(db: Db, roleId: string): Promise<PermissionGrants> {
  const rows = await db.select().from(accessGroupPermissions).where(eq(accessGroupPermissions.accessGroupId, roleId));
  const grants: PermissionGrants = {};
  for (const entity of ENTITIES) {
    const verbs = VERBS.filter((verb) => rows.some((r) => r.entity === entity && r.verb === verb));
    if (verbs.length > 0) grants[entity] = verbs;
  }
  return grants;
}

export const toAccessGroup = (row: RoleRow, permissions: PermissionGrants): AccessGroup => ({
  id: row.id,
  name: row.name,
  isAdmin: row.isAdmin,
  permissions,
  version: row.version,
  createdAt: row.createdAt.toISOString(),
});

/** Replaces a role's grants with `permissions` (duplicates in the input are harmless). */
export async function replaceGrants(db: Db, roleId: string, permissions: AccessGroupInput['permissions']): Promise<void> {
  await db.delete(accessGroupPermissions).where(eq(accessGroupPermissions.accessGroupId, roleId));
  const rows = Object.entries(permissions).flatMap(([entity, verbs]) => [...new Set(verbs ?? [])].map((verb) => ({ accessGroupId: roleId, entity, verb })));
  if (rows.length > 0) await db.insert(accessGroupPermissions).values(rows);
}

/** "assigned to 3 users: a@x, b@y, c@z", or null when nobody has the role. */
export async function roleAssignees(db: Db, roleId: string): Promise<string | null> {
  const [total] = await db.select({ n: count() }).from(users).where(eq(users.accessGroupId, roleId));
  const n = total?.n ?? 0;
  if (n === 0) return null;
  const shown = await db.select({ email: users.email }).from(users).where(eq(users.accessGroupId, roleId)).orderBy(users.email).limit(5);
  return `assigned to ${n} ${n === 1 ? 'user' : 'users'}: ${nameList(shown.map((u) => u.email), n)}`;
}

/** The role id a user holds (the signed-in principal carries only the role's name). */
export async function roleOf(db: Db, userId: string): Promise<string | null> {
  const [row] = await db.select({ roleId: users.accessGroupId }).from(users).where(eq(users.id, userId));
  return row?.roleId ?? null;
}
