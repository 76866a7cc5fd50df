import type { ListQueryInput, ListResult } from '../../../core/schemas/list';
import type { NamedRecord, NamedRecordInput } from '../../../core/schemas/named-record';
import type { ApiClient } from '../../api/client';
import { unwrap } from '../../api/unwrap';
import type { NamedList } from './lists';

/** The five calls of a name-only list. The four lists share one shape, so one path type serves all. */
export function namedListApi(api: ApiClient, list: NamedList) {
  const path = list.path as '/api/case-types';
  const item = `${list.path}/{id}` as '/api/case-types/{id}';
  return {
    list: (query: ListQueryInput): Promise<ListResult<NamedRecord>> => unwrap(api.GET(path, { params: { query } })),
    get: (id: string): Promise<NamedRecord> => unwrap(api.GET(item, { params: { path: { id } } })),
    add: (body: NamedRecordInput): Promise<NamedRecord> => unwrap(api.POST(path, { body })),
    update: (id: string, body: NamedRecordInput & { version: number }): Promise<NamedRecord> => unwrap(api.PUT(item, { params: { path: { id } }, body })),
    remove: (id: string): Promise<void> => unwrap(api.DELETE(item, { params: { path: { id } } })).then(() => undefined),
  };
}
