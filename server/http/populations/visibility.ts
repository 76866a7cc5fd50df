import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { populationOrganizations, populations } from '../../db/schema';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { NotFound } from '../errors';

export type PopulationRow = typeof populations.$inferSelect;

/** Shared with one of `organizationIds` (a population belongs to the organizations it is shared with). */
export function sharedWithAny(organizationIds: readonly string[]): SQL {
  if (organizationIds.length === 0) return sql`false`;
  const shared = and(eq(populationOrganizations.populationId, populations.id), inArray(populationOrganizations.organizationId, [...organizationIds]));
  return sql`exists (select 1 from ${populationOrganizations} where ${shared})`;
}

/** The populations a user may see (spec 6): every one for scope All, else those shared with their organizations. */
export function visibleTo(user: AuthenticatedUser): SQL | undefined {
  return user.scope === 'All' ? undefined : sharedWithAny(user.organizationIds);
}

/** One population the user may see; another organization's answers 404, so its existence is not confirmed. */
export async function findVisiblePopulation(db: Db, user: AuthenticatedUser, id: string): Promise<PopulationRow> {
  const [row] = await db.select().from(populations).where(and(eq(populations.id, id), visibleTo(user)));
  if (!row) throw new NotFound(`No population with id ${id}`);
  return row;
}

/** The organization ids a population is shared with. */
export async function sharedOrganizationIds(db: Db, populationId: string): Promise<string[]> {
  const rows = await db
    .select({ id: populationOrganizations.organizationId })
    .from(populationOrganizations)
    .where(eq(populationOrganizations.populationId, populationId));
  return rows.map((r) => r.id);
}
