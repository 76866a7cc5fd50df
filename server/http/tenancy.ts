import { inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { canReachOrganization } from '../../core/permissions';
import type { CountedOrganizations } from '../db/row-counts';
import type { AuthenticatedUser } from '../identity/load-principal';
import { NotFound } from './errors';

/** SQL restricting `column` (an organization id) to what the user may reach; undefined for scope All (spec 6). */
export function inReachableOrganizations(column: PgColumn, user: AuthenticatedUser): SQL | undefined {
  if (user.scope === 'All') return undefined;
  return user.organizationIds.length > 0 ? inArray(column, [...user.organizationIds]) : sql`false`;
}

/** The organizations a user reaches, as row_counts are read: 'all' for scope All (spec 6). */
export const reachableOrganizations = (user: AuthenticatedUser): CountedOrganizations => (user.scope === 'All' ? 'all' : user.organizationIds);

/**
 * A record shared with organizations is visible when it is shared with one the user reaches;
 * otherwise it answers 404, so another organization's records are not even confirmed to exist.
 */
export function assertReachesAny(user: AuthenticatedUser, organizationIds: readonly string[], what: string, id: string): void {
  if (user.scope === 'All') return;
  if (!organizationIds.some((orgId) => canReachOrganization(user, orgId))) throw new NotFound(`No ${what} with id ${id}`);
}
