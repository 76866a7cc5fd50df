import type { SQL } from 'drizzle-orm';
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
 * A page's rows, joined with their names, in the page's order (issue 29). The ids come first, from one table by
 * its list index (`pageIds`); only then are those ids joined (`load`). Joining the names around an
 * `id in (page subquery)` instead let PostgreSQL, past join_collapse_limit (8) joins, keep the written join order
 * and hash-join every profile before keeping 50 (7.7 s at 1M profiles; 32 ms once the order was free).
 */
export async function pageRows<R>(page: PagePlan, pageIds: () => Promise<{ id: string }[]>, load: (ids: string[]) => Promise<R[]>, idOf: (row: R) => string): Promise<R[]> {
  const ids = (await pageIds()).map((r) => r.id);
  if (page.backwards) ids.reverse();
  if (ids.length === 0) return [];
  const place = new Map(ids.map((id, i) => [id, i]));
  return (await load(ids)).sort((a, b) => place.get(idOf(a))! - place.get(idOf(b))!);
}
