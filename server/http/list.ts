import { and, asc, desc, ilike, inArray, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { ListQuery } from '../../core/schemas/list';
import { databaseKindOf, type Db } from '../db/database';
import { BadRequest } from './errors';

export interface ListColumn {
  /** The expression sorted and filtered on. */
  expr: SQLWrapper;
  sortable?: boolean;
  /** Matched by `search` and by a `filter` entry (contains, case-insensitive). */
  searchable?: boolean;
  /**
   * How this column matches `text` (contains, case-insensitive) when `expr` ILIKE '%text%' would read every
   * row: a condition an index answers (a trigram index, ids looked up in a small table); undefined when no
   * row can match, so a search leaves the column out and the other columns' indexes still serve it.
   */
  matches?(text: string): SQL | undefined;
}

export interface ListClauses {
  where: SQL | undefined;
  /** Whether a search or filter narrows the list below its scope (a count of the scope alone is not its count). */
  narrowed: boolean;
  orderBy: SQL[];
  /** The same order backwards (every term's direction and nulls placement reversed): deep pages read from the end. */
  reverseOrderBy: SQL[];
  limit: number;
  offset: number;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
/** The ILIKE pattern of "contains `text`". */
export const containsPattern = (text: string) => `%${escapeLike(text)}%`;
const contains = (expr: SQLWrapper, text: string) => ilike(sql`(${expr})::text`, containsPattern(text));
/** Values of a fixed set (statuses, kinds) that contain `text`, case-insensitive: the set is matched here, not per row. */
export const valuesContaining = <T extends string>(values: readonly T[], text: string): T[] => values.filter((v) => v.toLowerCase().includes(text.toLowerCase()));
const matchColumn = (column: ListColumn, text: string): SQL | undefined => (column.matches ? column.matches(text) : contains(column.expr, text));

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
  opts: { scope?: SQL | undefined; defaultSort: string; thenBy?: { expr: SQLWrapper; direction: 'asc' | 'desc' }; tiebreak?: SQLWrapper },
): ListClauses {
  const conditions: (SQL | undefined)[] = [opts.scope];
  const scoped = conditions.length;
  for (const [field, text] of Object.entries(parseFilter(query.filter))) {
    const column = columns[field];
    if (!column?.searchable) throw new BadRequest(`Cannot filter by "${field}"`);
    if (text.trim()) conditions.push(matchColumn(column, text.trim()) ?? sql`false`);
  }
  const search = query.search?.trim();
  if (search) {
    const arms = Object.values(columns)
      .filter((c) => c.searchable)
      .map((c) => matchColumn(c, search))
      .filter((c): c is SQL => c !== undefined);
    conditions.push(arms.length > 0 ? or(...arms) : sql`false`);
  }
  const [field, direction] = (query.sort ?? opts.defaultSort).split(':') as [string, 'asc' | 'desc' | undefined];
  const sortColumn = columns[field];
  if (!sortColumn?.sortable) throw new BadRequest(`Cannot sort by "${field}"`);
  const terms: [SQLWrapper, 'asc' | 'desc'][] = [
    [sortColumn.expr, direction === 'desc' ? 'desc' : 'asc'],
    ...(opts.thenBy ? [[opts.thenBy.expr, opts.thenBy.direction] as [SQLWrapper, 'asc' | 'desc']] : []),
    // A unique tiebreak keeps pages stable when many rows share the sorted value. It runs the sort's way, so one
    // ascending index serves both directions (read backwards for desc) and new rows, whose ids and times grow
    // (time-ordered ids, migration 0010), are added at its right end rather than splitting pages in its middle.
    ...(opts.tiebreak ? [[opts.tiebreak, direction === 'desc' ? 'desc' : 'asc'] as [SQLWrapper, 'asc' | 'desc']] : []),
  ];
  const by = (expr: SQLWrapper, dir: 'asc' | 'desc') => (dir === 'desc' ? desc(expr as SQL) : asc(expr as SQL));
  return {
    where: and(...conditions.filter((c): c is SQL => c !== undefined)),
    narrowed: conditions.length > scoped,
    orderBy: terms.map(([expr, dir]) => by(expr, dir)),
    // PostgreSQL's defaults (asc: nulls last, desc: nulls first) make desc the exact reverse of asc.
    reverseOrderBy: terms.map(([expr, dir]) => by(expr, dir === 'desc' ? 'asc' : 'desc')),
    limit: query.pageSize,
    offset: query.page * query.pageSize,
  };
}

/** Above this many rows a list's count is the planner's estimate (flagged `estimated`), not a count of every row. */
export const EXACT_COUNT_LIMIT = 10_000;
/** A page starting at or past this row reads the list from its end when the end is nearer. */
export const DEEP_PAGE_ROWS = 50_000;

/** The two thresholds above, smaller in tests so a few rows exercise estimates and reading from the end. */
export interface ListTuning {
  exactCountLimit: number;
  deepPageRows: number;
}
export const LIST_TUNING: ListTuning = { exactCountLimit: EXACT_COUNT_LIMIT, deepPageRows: DEEP_PAGE_ROWS };

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** A named table a list column refers to by id (chemistries, analyses, cases, …): its id and name columns. */
export interface NamedTable {
  table: SQLWrapper;
  id: SQLWrapper;
  name: SQLWrapper;
}

/** Most rows of one table a searched text may name before its column falls back to a subquery (NamedIds 'many'). */
export const NAMED_ROWS_LIMIT = 1000;
/** The ids of a table's rows whose names contain a text; 'many' above NAMED_ROWS_LIMIT. */
export type NamedIds = string[] | 'many';

/**
 * Looks up, once per list call, which rows of named tables each searched text names: a list column compared
 * with their ids as constants (`case_id in (…)`) lets the planner estimate every arm of the search and combine
 * the columns' indexes; an `= any(array(subquery))` arm cannot be estimated, and at 1M profiles the planner
 * walked the whole list order instead (1.2 s for a sample name). A name no row has leaves its column out.
 */
export async function matchNamedRows<K extends string>(db: Db, texts: readonly string[], tables: Record<K, NamedTable>): Promise<Map<string, Record<K, NamedIds>>> {
  const kinds = Object.keys(tables) as K[];
  const found = new Map<string, Record<K, NamedIds>>();
  for (const text of new Set(texts.map((t) => t.trim()).filter(Boolean))) {
    const pattern = containsPattern(text);
    const selects = kinds.map((kind) => sql`(select ${kind}::text as kind, ${tables[kind].id}::text as id from ${tables[kind].table} where ${tables[kind].name} ilike ${pattern} limit ${NAMED_ROWS_LIMIT + 1})`);
    const rows = rowsOf<{ kind: K; id: string }>(await db.execute(sql.join(selects, sql` union all `)));
    const ids = Object.fromEntries(kinds.map((kind) => [kind, [] as string[]])) as Record<K, string[]>;
    for (const row of rows) ids[row.kind].push(row.id);
    found.set(text, Object.fromEntries(kinds.map((kind) => [kind, ids[kind].length > NAMED_ROWS_LIMIT ? 'many' : ids[kind]])) as Record<K, NamedIds>);
  }
  return found;
}

/**
 * The search arm of a column holding a named table's id: the ids a text names (matchNamedRows) as constants,
 * the table's own search as a subquery when they are too many, undefined (column left out) when none.
 */
export function namedIdsMatch(column: SQLWrapper, named: NamedTable, ids: NamedIds | undefined, text: string): SQL | undefined {
  if (ids === 'many') return sql`${column} = any(array(select ${named.id} from ${named.table} where ${named.name} ilike ${containsPattern(text)}))`;
  return ids && ids.length > 0 ? inArray(column as never, [...ids]) : undefined;
}
const filtered = (where: SQL | undefined) => (where ? sql` where ${where}` : sql``);

async function exactCount(db: Db, from: SQL, where: SQL | undefined): Promise<number> {
  const [all] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from ${from}${filtered(where)}`));
  return Number(all?.n ?? 0);
}

/** The planner's estimate of the rows of `from` that `where` keeps: table statistics, no row read. */
async function plannedRows(db: Db, from: SQL, where: SQL | undefined): Promise<number> {
  const [plan] = rowsOf<Record<string, unknown>>(await db.execute(sql`explain (format json) select 1 from ${from}${filtered(where)}`));
  const raw = plan ? Object.values(plan)[0] : undefined;
  const parsed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: { 'Plan Rows': number } }] | undefined;
  return Math.round(parsed?.[0]?.Plan['Plan Rows'] ?? 0);
}

/** How to read one page: in the list's order or backwards from its end, and the total when it was counted to decide. */
export interface PagePlan {
  orderBy: SQL[];
  /** Read backwards from the list's end: the rows come in reverse list order. */
  backwards: boolean;
  limit: number;
  offset: number;
  total?: number;
}

/**
 * Where a page is read from (issue 15). An OFFSET walks every row before the page, even along an index that holds
 * the order (about 0.11 µs a row on PostgreSQL: 100 ms at row 900,000 of 1M). A page far down a long list is read
 * backwards from the end instead (the same index, read backwards) after an exact count of the list (about 0.04 µs
 * a row): from READ_FROM_END_AT of the list on, where counting and walking back costs less than walking forward,
 * so no page costs more than walking about 70% of its list. The first DEEP_PAGE_ROWS rows are always read forwards.
 */
export const READ_FROM_END_AT = 0.7;
/**
 * `known`, the list's total when counters give it (server/db/row-counts.ts), saves the estimate and the count:
 * any page past the middle of the list then reads from the end, so no page walks more than half of it.
 */
export async function planPage(db: Db, from: SQL, clauses: ListClauses, tuning: ListTuning = LIST_TUNING, known?: number): Promise<PagePlan> {
  const forward = { orderBy: clauses.orderBy, backwards: false, limit: clauses.limit, offset: clauses.offset, ...(known === undefined ? {} : { total: known }) };
  if (known !== undefined ? clauses.offset * 2 <= known : clauses.offset < tuning.deepPageRows || clauses.offset <= (await plannedRows(db, from, clauses.where)) * READ_FROM_END_AT) return forward;
  const total = known ?? (await exactCount(db, from, clauses.where));
  if (clauses.offset >= total) return { ...forward, total };
  const end = Math.min(total, clauses.offset + clauses.limit);
  return { orderBy: clauses.reverseOrderBy, backwards: true, limit: end - clauses.offset, offset: total - end, total };
}

/**
 * The count of a list page (issue 15: a count(*) over a million rows on every page took most of a second).
 * Exact when known (`total` of planPage), when the page shows where the list ends, or when at most
 * EXACT_COUNT_LIMIT rows match (counted with a LIMIT, so never more than that many are read); otherwise the
 * planner's estimate of `from` filtered by `where` (table statistics: no row is read), never less than the rows
 * known to exist, and `estimated`. `from` must hold every row of the list once (a table, or joins that neither
 * drop nor repeat rows).
 */
export async function countList(
  db: Db,
  from: SQL,
  where: SQL | undefined,
  page: { offset: number; pageSize: number; returned: number; total?: number | undefined },
  tuning: ListTuning = LIST_TUNING,
): Promise<{ count: number; estimated?: true }> {
  const limit = tuning.exactCountLimit;
  const { offset, pageSize, returned, total } = page;
  if (total !== undefined) return { count: total };
  // A short page is the last one (an empty page past the start is not: the list may have shrunk).
  if (returned < pageSize && (returned > 0 || offset === 0)) return { count: offset + returned };
  const [capped] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from (select 1 from ${from}${filtered(where)} limit ${limit + 1}) as found`),
  );
  const n = Number(capped?.n ?? 0);
  if (n <= limit) return { count: n };
  // Asked for a page past the end of an estimate: count them once. PGlite runs no autovacuum, so its
  // statistics never follow the data (a case given 100,000 profiles by an import was estimated at 10,001):
  // the embedded default, sized for a laboratory rather than a national database, always counts.
  if (returned === 0 || databaseKindOf(db) === 'pglite') return { count: await exactCount(db, from, where) };
  const planned = await plannedRows(db, from, where);
  // Statistics that know fewer rows than were just counted are stale (ANALYZE has not run since a bulk add).
  if (planned <= limit) return { count: await exactCount(db, from, where) };
  const known = offset + returned + (returned === pageSize ? 1 : 0);
  return { count: Math.max(planned, known), estimated: true };
}
