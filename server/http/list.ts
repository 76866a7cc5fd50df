import { and, asc, desc, ilike, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { ListQuery } from '../../core/schemas/list';
import { BadRequest } from './errors';

export interface ListColumn {
  /** The expression sorted and filtered on. */
  expr: SQLWrapper;
  sortable?: boolean;
  /** Matched by `search` and by a `filter` entry (contains, case-insensitive). */
  searchable?: boolean;
}

export interface ListClauses {
  where: SQL | undefined;
  orderBy: SQL[];
  limit: number;
  offset: number;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
const contains = (expr: SQLWrapper, text: string) => ilike(sql`(${expr})::text`, `%${escapeLike(text)}%`);

function parseFilter(filter: string | undefined): Record<string, string> {
  if (!filter) return {};
  let value: unknown;
  try {
    value = JSON.parse(filter);
  } catch {
    throw new BadRequest('The filter must be a JSON object of column names to text');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.values(value).some((v) => typeof v !== 'string')) {
    throw new BadRequest('The filter must be a JSON object of column names to text');
  }
  return value as Record<string, string>;
}

/**
 * Turns a list query into SQL clauses over the columns a list exposes; the database pages, sorts
 * and filters (never the browser). Unknown columns are a 400 naming the column.
 */
export function listClauses(
  query: ListQuery,
  columns: Record<string, ListColumn>,
  opts: { scope?: SQL | undefined; defaultSort: string; thenBy?: SQL; tiebreak?: SQLWrapper },
): ListClauses {
  const conditions: (SQL | undefined)[] = [opts.scope];
  for (const [field, text] of Object.entries(parseFilter(query.filter))) {
    const column = columns[field];
    if (!column?.searchable) throw new BadRequest(`Cannot filter by "${field}"`);
    if (text.trim()) conditions.push(contains(column.expr, text.trim()));
  }
  const search = query.search?.trim();
  if (search) {
    const searchable = Object.values(columns).filter((c) => c.searchable);
    conditions.push(or(...searchable.map((c) => contains(c.expr, search))));
  }
  const [field, direction] = (query.sort ?? opts.defaultSort).split(':') as [string, 'asc' | 'desc' | undefined];
  const sortColumn = columns[field];
  if (!sortColumn?.sortable) throw new BadRequest(`Cannot sort by "${field}"`);
  const primary = direction === 'desc' ? desc(sortColumn.expr as SQL) : asc(sortColumn.expr as SQL);
  return {
    where: and(...conditions.filter((c): c is SQL => c !== undefined)),
    // A unique tiebreak keeps pages stable when many rows share the sorted value.
    orderBy: [primary, ...(opts.thenBy ? [opts.thenBy] : []), ...(opts.tiebreak ? [asc(opts.tiebreak as SQL)] : [])],
    limit: query.pageSize,
    offset: query.page * query.pageSize,
  };
}
