import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { organizations } from '../../db/schema';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { BadRequest, Forbidden } from '../errors';

/** Spec 6: the organization list of a population can be edited by an administrator with scope All. */
export const mayChooseOrganizations = (user: AuthenticatedUser): boolean => user.isAdmin && user.scope === 'All';

export const NOT_YOUR_ORGANIZATION = 'You can share a population only with your own organizations.';
export const ORGANIZATIONS_FIXED = 'Only an administrator with scope All can change the organizations of a population.';

/**
 * The organizations a new population is shared with. An administrator with scope All may pick any
 * (or none: then only scope All sees it); anyone else shares with at least one of their own, so the
 * population they add stays visible to them.
 */
export async function organizationsForNewPopulation(db: Db, user: AuthenticatedUser, requested: readonly string[]): Promise<string[]> {
  const ids = [...new Set(requested)];
  if (!mayChooseOrganizations(user)) {
    if (ids.length === 0) throw new BadRequest('Choose at least one organization to share the population with.');
    if (ids.some((id) => !user.organizationIds.includes(id))) throw new Forbidden(NOT_YOUR_ORGANIZATION);
    return ids;
  }
  await assertOrganizationsExist(db, ids);
  return ids;
}

/**
 * The organizations after an update: unchanged when the body leaves them out or repeats the ones
 * the user sees; a change is refused (403) unless the user is an administrator with scope All.
 */
export async function organizationsAfterUpdate(
  db: Db,
  user: AuthenticatedUser,
  current: readonly string[],
  requested: readonly string[] | undefined,
): Promise<string[] | null> {
  if (requested === undefined) return null;
  const ids = [...new Set(requested)];
  if (!mayChooseOrganizations(user)) {
    // The user saw only the organizations they reach (population-view.ts); sending those back is no change.
    const seen = current.filter((id) => user.scope === 'All' || user.organizationIds.includes(id));
    const same = ids.length === seen.length && ids.every((id) => seen.includes(id));
    if (!same) throw new Forbidden(ORGANIZATIONS_FIXED);
    return null;
  }
  await assertOrganizationsExist(db, ids);
  const same = ids.length === current.length && ids.every((id) => current.includes(id));
  return same ? null : ids;
}

async function assertOrganizationsExist(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const found = await db.select({ id: organizations.id }).from(organizations).where(inArray(organizations.id, [...ids]));
  const missing = ids.filter((id) => !found.some((f) => f.id === id));
  if (missing.length > 0) throw new BadRequest(`No organization with id ${missing.join(', ')}`);
}
