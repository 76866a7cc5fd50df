import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from './database';
import { rowCounts } from './schema';

/** Which organizations a count covers: 'all' of them, or these (none: nothing). */
export type CountedOrganizations = readonly string[] | 'all';

/**
 * How many rows of `relation` the organizations hold in the statuses (every status when undefined): the sum of
 * a few counters that triggers keep exact (migration 0018), read in a few index probes whatever the table's size.
 */
export async function countedRows(db: Db, relation: 'profiles' | 'hits' | 'cases', organizations: CountedOrganizations, statuses?: readonly string[]): Promise<number> {
  if (organizations !== 'all' && organizations.length === 0) return 0;
  const [row] = await db
    .select({ n: sql<string | number | null>`sum(${rowCounts.n})` })
    .from(rowCounts)
    .where(
      and(
        eq(rowCounts.relation, relation),
        organizations === 'all' ? undefined : inArray(rowCounts.organizationId, [...organizations]),
        statuses ? inArray(rowCounts.status, [...statuses]) : undefined,
      ),
    );
  return Number(row?.n ?? 0);
}
