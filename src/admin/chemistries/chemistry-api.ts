import type { Chemistry, ChemistryInput } from '../../../core/schemas/chemistries';
import type { KitAlleles, UpdateKitThresholdsBody } from '../../../core/schemas/kit-bins';
import type { ListQueryInput, ListResult } from '../../../core/schemas/list';
import type { ApiClient } from '../../api/client';
import { unwrap } from '../../api/unwrap';
import type { ChemistryScreens } from './chemistry-kinds';

/** The calls of one chemistry kind. Both kinds share one shape, so one path type serves both. */
export function chemistryApi(api: ApiClient, screens: ChemistryScreens) {
  const path = screens.path as '/api/ystr-chemistries';
  const item = `${screens.path}/{id}` as '/api/ystr-chemistries/{id}';
  return {
    list: (query: ListQueryInput): Promise<ListResult<Chemistry>> => unwrap(api.GET(path, { params: { query } })),
    get: (id: string): Promise<Chemistry> => unwrap(api.GET(item, { params: { path: { id } } })),
    add: (body: ChemistryInput): Promise<Chemistry> => unwrap(api.POST(path, { body })),
    update: (id: string, body: ChemistryInput & { version: number }): Promise<Chemistry> => unwrap(api.PUT(item, { params: { path: { id } }, body })),
    remove: (id: string): Promise<void> => unwrap(api.DELETE(item, { params: { path: { id } } })).then(() => undefined),
    /** The kit's allele bins, dyes and analytical thresholds (issue 31). */
    alleles: (id: string): Promise<KitAlleles> => unwrap(api.GET('/api/chemistries/{id}/alleles', { params: { path: { id } } })),
    setThresholds: (id: string, body: UpdateKitThresholdsBody): Promise<KitAlleles> =>
      unwrap(api.PUT(`${screens.path}/{id}/thresholds` as '/api/ystr-chemistries/{id}/thresholds', { params: { path: { id } }, body })),
  };
}
