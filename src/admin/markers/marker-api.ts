import type { ListQueryInput, ListResult } from '../../../core/schemas/list';
import type { Marker, MarkerInput, MarkerKind } from '../../../core/schemas/markers';
import type { ApiClient } from '../../api/client';
import { unwrap } from '../../api/unwrap';

/** The calls of the markers area (server/http/markers). */
export function markerApi(api: ApiClient) {
  return {
    list: (query: ListQueryInput & { kind?: MarkerKind }): Promise<ListResult<Marker>> => unwrap(api.GET('/api/markers', { params: { query } })),
    get: (id: string): Promise<Marker> => unwrap(api.GET('/api/markers/{id}', { params: { path: { id } } })),
    add: (body: MarkerInput): Promise<Marker> => unwrap(api.POST('/api/markers', { body })),
    update: (id: string, body: MarkerInput & { version: number }): Promise<Marker> => unwrap(api.PUT('/api/markers/{id}', { params: { path: { id } }, body })),
    remove: (id: string): Promise<void> => unwrap(api.DELETE('/api/markers/{id}', { params: { path: { id } } })).then(() => undefined),
  };
}
