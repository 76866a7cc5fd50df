import { count, sql, type SQL } from 'drizzle-orm';
import type { Chemistry } from '../../../core/schemas/chemistries';
import type { ListQuery, ListResult } from '../../../core/schemas/list';
import type { Db } from '../../db/database';
import { chemistries } from '../../db/schema';
import { listClauses } from '../list';
import { withMarkers } from './chemistry-view';

// Correlated subqueries, so the database filters by marker name and sorts by marker count while paging.
const markerNames = sql`(select string_agg(m.name, ', ' order by cm.position) from chemistry_markers cm join markers m on m.id = cm.marker_id where cm.chemistry_id = ${chemistries.id})`;
const markerCount = sql`(select count(*) from chemistry_markers cm where cm.chemistry_id = ${chemistries.id})`;

/** One page of chemistries: `scope` narrows to a kind; `search`/`filter` also match marker names ("SE33"). */
export async function listChemistries(db: Db, query: ListQuery, scope: SQL | undefined): Promise<ListResult<Chemistry>> {
  const clauses = listClauses(
    query,
    {
      name: { expr: chemistries.name, sortable: true, searchable: true },
      markers: { expr: markerNames, searchable: true },
      markerCount: { expr: markerCount, sortable: true },
      createdAt: { expr: chemistries.createdAt, sortable: true },
    },
    { scope, defaultSort: 'name:asc', tiebreak: chemistries.id },
  );
  const rows = await db.select().from(chemistries).where(clauses.where).orderBy(...clauses.orderBy).limit(clauses.limit).offset(clauses.offset);
  const [total] = await db.select({ n: count() }).from(chemistries).where(clauses.where);
  return { items: await withMarkers(db, rows), count: total?.n ?? 0 };
}
