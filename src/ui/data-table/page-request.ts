import type { IGetRowsParams } from 'ag-grid-community';
import type { ListQueryInput } from '../../../core/schemas/list';

/** Translates AG Grid's block request into the list call's query (ARCHITECTURE.md "Calls"). */
export function pageRequest(params: Pick<IGetRowsParams, 'startRow' | 'sortModel' | 'filterModel'>, pageSize: number, search: string): ListQueryInput {
  const query: ListQueryInput = { page: Math.floor(params.startRow / pageSize), pageSize };
  const sort = params.sortModel[0];
  if (sort) query.sort = `${sort.colId}:${sort.sort}`;
  const filter: Record<string, string> = {};
  for (const [field, model] of Object.entries((params.filterModel ?? {}) as Record<string, { filter?: unknown }>)) {
    if (typeof model?.filter === 'string' && model.filter.trim()) filter[field] = model.filter.trim();
  }
  if (Object.keys(filter).length > 0) query.filter = JSON.stringify(filter);
  if (search.trim()) query.search = search.trim();
  return query;
}
