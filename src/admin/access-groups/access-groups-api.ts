import type { AccessGroup, AccessGroupInput, AccessGroupSummary } from '../../../core/schemas/access-groups';
import type { ListQueryInput, ListResult } from '../../../core/schemas/list';
import type { ApiClient } from '../../api/client';
import { unwrap } from '../../api/unwrap';

/** The calls of the Roles area (spec 7.1: access-groups). */
export function accessGroupsApi(api: ApiClient) {
  const byId = (id: string) => ({ params: { path: { id } } });
  return {
    list: (query: ListQueryInput): Promise<ListResult<AccessGroupSummary>> => unwrap(api.GET('/api/access-groups', { params: { query } })),
    get: (id: string): Promise<AccessGroup> => unwrap(api.GET('/api/access-groups/{id}', byId(id))) as Promise<AccessGroup>,
    add: (body: AccessGroupInput): Promise<AccessGroup> => unwrap(api.POST('/api/access-groups', { body })) as Promise<AccessGroup>,
    update: (id: string, body: AccessGroupInput & { version: number }): Promise<AccessGroup> =>
      unwrap(api.PUT('/api/access-groups/{id}', { ...byId(id), body })) as Promise<AccessGroup>,
    remove: (id: string): Promise<void> => unwrap(api.DELETE('/api/access-groups/{id}', byId(id))).then(() => undefined),
  };
}
