import { and, inArray, sql } from 'drizzle-orm';
import type { Db } from './database';
import { rowCounts } from './schema';

/** Which organizations a count covers: 'all' of them, or these (none: nothing). */
export type CountedOrganizations = readonly string[] | 'all';

/** A table whose rows row_counts counts. */
export type CountedRelation = 'profiles' | 'hits' | 'cases';

/**
 * How many rows of each of `relations` the organizations hold in the statuses (every status when undefined): sums of
 * a few counters that triggers keep exact (migration 0018), read in a few index probes whatever the tables' sizes,
 * in one statement for every relation (on PGlite each statement is a round trip to the database thread).
 */
export async function countedRowsOf<R extends CountedRelation>(db: Db, relations: readonly R[], organizations: CountedOrganizations, statuses?: readonly string[]): Promise<Record<R, number>> {
  const counts = Object.fromEntries(relations.map((r) => [r, 0])) as Record<R, number>;
  if (relations.length === 0 || (organizations !== 'all' && organizations.length === 0)) return counts;
  const rows = await db
    .select({ relation: rowCounts.relation, n: sql<string | number | null>`sum(${rowCounts.n})` })
    .from(rowCounts)
    .where(
      and(
        inArray(rowCounts.relation, [...relations]),
        organizations === 'all' ? undefined : inArray(rowCounts.organizationId, [...organizations]),
        statuses ? inArray(rowCounts.status, [...statuses]) : undefined,
      ),
    )
    .groupBy(rowCounts.relation);
  for (const row of rows) counts[row.relation as R] = Number(row.n ?? 0);
  return counts;
}

/** How many rows of `relation` the organizations hold in the statuses (every status when undefined): countedRowsOf. */
export async function countedRows(db: Db, relation: CountedRelation, organizations: CountedOrganizations, statuses?: readonly string[]): Promise<number> {
  return (await countedRowsOf(db, [relation], organizations, statuses))[relation];
}
