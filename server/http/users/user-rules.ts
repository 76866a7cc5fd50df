import { canAssignOrganizations, canReachOrganization, canSeeAdminUserOptions } from '../../../core/permissions';
import type { UserInput } from '../../../core/schemas/users';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { BadRequest, Conflict, Forbidden } from '../errors';
import type { LoadedUser } from './user-queries';

export const ROLE_NEEDS_ADMIN = "Only an administrator may choose a user's role.";
export const LOCKOUT_NEEDS_ADMIN = 'Only an administrator may lock a user out or let them back in.';
export const NOTIFICATIONS_NEED_ADMIN = 'Only an administrator may change whether a user receives notifications.';
export const ADMIN_ACCOUNT_NEEDS_ADMIN = "Only an administrator may change an administrator's account.";
export const SCOPE_ALL_NEEDS_ADMIN_ALL = 'Only an administrator with scope All may give a user scope All.';
export const ORGANIZATIONS_NEED_EDIT_ALL = "Only a user with Users Edit and scope All may change a user's organizations.";
export const OWN_ORGANIZATIONS_ONLY = 'You may add users only to your own organizations.';
export const NEW_USER_NEEDS_ORGANIZATION = 'Choose one of your organizations for the new user, or you will not see them again.';
export const CANNOT_LOCK_SELF = 'You cannot lock yourself out.';
export const CANNOT_DROP_OWN_ADMIN = 'You cannot remove your own administrator role; another administrator must do it.';
export const CANNOT_DELETE_SELF = 'You cannot delete your own account.';
export const SCOPE_ALL_ACCOUNT_NEEDS_SCOPE_ALL =
  'Only a user with scope All may change a user with scope All, lock them out, delete them or set their password.';
export const SCOPE_ALL_ACCOUNT_NEEDS_ADMIN_ALL =
  'Only an administrator with scope All may change the role, scope, lockout or password of a user with scope All, or delete them.';

const sameSet = (a: readonly string[], b: readonly string[]) => {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((x) => right.has(x));
};

/**
 * The spec 6 rules on who may set which field of a user, checked before anything is written.
 * `before` is null for a new user, whose "unchanged" values are the defaults (no role, not locked,
 * no notifications). `newRoleIsAdmin` is whether the requested role is an administrator role.
 */
export function checkUserChange(actor: AuthenticatedUser, before: LoadedUser | null, input: UserInput, newRoleIsAdmin: boolean): void {
  if (before) assertNotOutranked(actor, before);
  if (!canSeeAdminUserOptions(actor)) {
    if (input.accessGroupId !== (before?.row.accessGroupId ?? null)) throw new Forbidden(ROLE_NEEDS_ADMIN);
    if (input.lockedOut !== (before ? before.row.lockedAt !== null : false)) throw new Forbidden(LOCKOUT_NEEDS_ADMIN);
    if (input.receiveNotifications !== (before?.row.receiveNotifications ?? false)) throw new Forbidden(NOTIFICATIONS_NEED_ADMIN);
  }
  if (input.scope === 'All' && before?.row.scope !== 'All' && !isAdminWithScopeAll(actor)) throw new Forbidden(SCOPE_ALL_NEEDS_ADMIN_ALL);
  const controlChanged =
    before && (input.accessGroupId !== before.row.accessGroupId || input.lockedOut !== (before.row.lockedAt !== null) || input.scope !== before.row.scope);
  if (controlChanged) assertMayControlAccount(actor, before);
  checkOrganizations(actor, before, input.organizationIds);
  if (before?.row.id === actor.id) {
    if (input.lockedOut) throw new Conflict(CANNOT_LOCK_SELF);
    if (actor.isAdmin && !newRoleIsAdmin) throw new Conflict(CANNOT_DROP_OWN_ADMIN);
  }
}

/**
 * Organization assignment needs Users Edit and scope All (spec 6). Anyone else keeps a user's
 * organizations as they are, and puts a new user into organizations of their own, so that the
 * user they add stays visible to them.
 */
function checkOrganizations(actor: AuthenticatedUser, before: LoadedUser | null, requested: readonly string[]): void {
  if (canAssignOrganizations(actor)) return;
  if (before) {
    if (!sameSet(before.organizations.map((o) => o.id), requested)) throw new Forbidden(ORGANIZATIONS_NEED_EDIT_ALL);
    return;
  }
  if (!requested.every((orgId) => canReachOrganization(actor, orgId))) throw new Forbidden(OWN_ORGANIZATIONS_ONLY);
  if (actor.scope !== 'All' && requested.length === 0) throw new BadRequest(NEW_USER_NEEDS_ORGANIZATION);
}

/** Nobody deletes their own account: a lab must not lose its last administrator by a slip. */
export function checkUserDelete(actor: AuthenticatedUser, target: LoadedUser): void {
  if (target.row.id === actor.id) throw new Conflict(CANNOT_DELETE_SELF);
  assertMayControlAccount(actor, target);
}

const isAdminWithScopeAll = (actor: AuthenticatedUser) => actor.isAdmin && actor.scope === 'All';

/**
 * Nobody touches an account that reaches further than their own: one with administrator rights they lack,
 * or with scope All when theirs is not. Even an e-mail change would do harm: it takes over the account
 * (a set-password link goes to the new address) or locks its owner out.
 */
function assertNotOutranked(actor: AuthenticatedUser, target: LoadedUser): void {
  if (target.role?.isAdmin && !actor.isAdmin) throw new Forbidden(ADMIN_ACCOUNT_NEEDS_ADMIN);
  if (target.row.scope === 'All' && actor.scope !== 'All') throw new Forbidden(SCOPE_ALL_ACCOUNT_NEEDS_SCOPE_ALL);
}

/**
 * Role, scope, lockout, password and deletion of a user with scope All stay with administrators with
 * scope All: an administrator of one organization could otherwise make a scope-All colleague an
 * administrator, or take over their account, and so gain rights they do not have.
 */
export function assertMayControlAccount(actor: AuthenticatedUser, target: LoadedUser): void {
  assertNotOutranked(actor, target);
  if (target.row.scope === 'All' && !isAdminWithScopeAll(actor)) throw new Forbidden(SCOPE_ALL_ACCOUNT_NEEDS_ADMIN_ALL);
}
