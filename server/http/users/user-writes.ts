import { eq, inArray } from 'drizzle-orm';
import type { UserInput } from '../../../core/schemas/users';
import type { Clock } from '../../clock';
import type { Db } from '../../db/database';
import { FOREIGN_KEY_VIOLATION, onUniqueViolation, pgErrorCode } from '../../db/errors';
import { accessGroups, organizations, userOrganizations, users } from '../../db/schema';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { BadRequest, Conflict } from '../errors';
import { updateVersioned } from '../../db/versioned';
import { keepingAnAdministrator } from './administrators';
import { findVisibleUser, type LoadedUser } from './user-queries';
import { checkUserChange, checkUserDelete } from './user-rules';

const duplicateEmail = (email: string) => () => new Conflict(`A user with e-mail ${email} already exists`);

/** Whether the role exists and is an administrator role; a role id that is not there is a 400. */
async function roleIsAdmin(db: Db, accessGroupId: string | null): Promise<boolean> {
  if (accessGroupId === null) return false;
  const [role] = await db.select({ isAdmin: accessGroups.isAdmin }).from(accessGroups).where(eq(accessGroups.id, accessGroupId));
  if (!role) throw new BadRequest(`There is no role with id ${accessGroupId}`);
  return role.isAdmin;
}

async function assertOrganizationsExist(db: Db, organizationIds: readonly string[]): Promise<void> {
  if (organizationIds.length === 0) return;
  const found = await db.select({ id: organizations.id }).from(organizations).where(inArray(organizations.id, [...organizationIds]));
  const missing = organizationIds.filter((id) => !found.some((f) => f.id === id));
  if (missing.length > 0) throw new BadRequest(`There is no organization with id ${missing.join(', ')}`);
}

async function replaceOrganizations(db: Db, userId: string, organizationIds: readonly string[]): Promise<void> {
  await db.delete(userOrganizations).where(eq(userOrganizations.userId, userId));
  const unique = [...new Set(organizationIds)];
  if (unique.length > 0) await db.insert(userOrganizations).values(unique.map((organizationId) => ({ userId, organizationId })));
}

/**
 * Adds (`target` null) or changes a user after the spec 6 checks; role, organizations and the
 * user row change in one transaction that is undone if no administrator with scope All remains.
 */
export async function saveUser(
  db: Db,
  clock: Clock,
  actor: AuthenticatedUser,
  target: { before: LoadedUser; version: number } | null,
  input: UserInput,
): Promise<LoadedUser> {
  const before = target?.before ?? null;
  checkUserChange(actor, before, input, await roleIsAdmin(db, input.accessGroupId));
  await assertOrganizationsExist(db, input.organizationIds);
  const wasLocked = before?.row.lockedAt ?? null;
  const values = {
    email: input.email,
    firstName: input.firstName,
    lastName: input.lastName,
    scope: input.scope,
    accessGroupId: input.accessGroupId,
    receiveNotifications: input.receiveNotifications,
    lockedAt: input.lockedOut ? (wasLocked ?? clock.now()) : null,
    // Letting someone back in also forgives the failed sign-ins that may have led to it.
    ...(wasLocked && !input.lockedOut ? { failedSignIns: 0 } : {}),
  };
  const id = await keepingAnAdministrator(db, (tx) =>
    onUniqueViolation(async () => {
      const row = target
        ? await updateVersioned(tx, users, target.before.row.id, target.version, values, 'user')
        : (await tx.insert(users).values(values).returning())[0]!;
      await replaceOrganizations(tx, row.id, input.organizationIds);
      return row.id;
    }, duplicateEmail(input.email)),
  );
  return findVisibleUser(db, actor, id);
}

/** Deletes a user (administrators only), never oneself and never the last administrator with scope All. */
export async function deleteUser(db: Db, actor: AuthenticatedUser, target: LoadedUser): Promise<void> {
  checkUserDelete(actor, target);
  try {
    await keepingAnAdministrator(db, (tx) => tx.delete(users).where(eq(users.id, target.row.id)));
  } catch (err) {
    if (pgErrorCode(err) === FOREIGN_KEY_VIOLATION) throw new Conflict(`User ${target.row.email} cannot be deleted: records still refer to them. Lock them out instead.`);
    throw err;
  }
}
