import type { Chemistry, ChemistryInput } from '../../../core/schemas/chemistries';
import type { ListQueryInput, ListResult } from '../../../core/schemas/list';
import type { ApiClient } from '../../api/client';
import { unwrap } from '../../api/unwrap';
import type { ChemistryScreens } from './chemistry-kinds';

/** The five calls of one chemistry kind. Both kinds share one shape, so one path type serves both. */
export function chemistryApi(api: ApiClient, screens: ChemistryScreens) {
  const path = screens.path as '/api/ystr-chemistries';
  const item = `${screens.path}/{id}` as '/api/ystr-chemistries/{id}';
  return {
    list: (query: ListQueryInput): Promise<ListResult<Chemistry>> => unwrap(api.GET(path, { params: { query } })),
    get: (id: string): Promise<Chemistry> => unwrap(api.GET(item, { params: { path: { id } } })),
    add: (body: ChemistryInput): Promise<Chemistry> => unwrap(api.POST(path, { body })),
    update: (id: string, body: ChemistryInput & { version: number }): Promise<Chemistry> => unwrap(api.PUT(item, { params: { path: { id } }, body })),
    remove: (id: string): Promise<void> => unwrap(api.DELETE(item, { params: { path: { id } } })).then(() => undefined),
  };
}
