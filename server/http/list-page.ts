import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { CountedOrganizations } from '../db/row-counts';
import type { PagePlan } from './list';

/**
 * What a list shows: `where` its rows; `organizations` when `where` is exactly "of these organizations", so its
 * count (by status) is read from row_counts instead of counted. Undefined for other scopes (a case's, a profile's).
 */
export interface ListScope {
  where: SQL | undefined;
  organizations?: CountedOrganizations;
}

/**
 * A page's rows, joined with their names, in the list's order (issue 29), in one statement. The page's ids come first,
 * from one table by its list index (`pageIds`, the page's `select id … order by … limit … offset …`), as an initplan
 * (`id = any(array(…))`) that PostgreSQL runs before anything else; `load` joins the rows with those ids only, and
 * sorts them by `orderBy` again (the page's order, reversed when it is read from the end). Joining the names around an
 * `id in (page subquery)` instead let PostgreSQL, past join_collapse_limit (8) joins, keep the written join order
 * and hash-join every profile before keeping 50 (7.7 s at 1M profiles; 32 ms once the order was free); reading the
 * ids in a statement of their own cost a round trip more, on PGlite one more turn of its one connection.
 */
export async function pageRows<R>(page: PagePlan, id: SQLWrapper, pageIds: SQLWrapper, load: (onPage: SQL, orderBy: SQL[]) => Promise<R[]>): Promise<R[]> {
  const rows = await load(sql`${id} = any(array(${pageIds}))`, page.orderBy);
  return page.backwards ? rows.reverse() : rows;
}
