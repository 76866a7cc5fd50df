import type { ReleaseRequest, ReleaseStatus } from '../../core/schemas/foreign-queries';
import type { ApiClient } from '../api/client';
import { unwrap } from '../api/unwrap';

/** The release requests of foreign queries (issue 32, Prüm II) and their decisions. */
export function foreignQueriesApi(api: ApiClient) {
  const path = (r: ReleaseRequest) => ({ params: { path: { id: r.id } } });
  return {
    list: async (organizationId: string, status: ReleaseStatus): Promise<ReleaseRequest[]> =>
      (await unwrap(api.GET('/api/network/release-requests', { params: { query: { organizationId, status } } }))).items,
    release: (r: ReleaseRequest): Promise<ReleaseRequest> => unwrap(api.POST('/api/network/release-requests/{id}/release', { ...path(r), body: { version: r.version } })),
    refuse: (r: ReleaseRequest, reason: string): Promise<ReleaseRequest> => unwrap(api.POST('/api/network/release-requests/{id}/refuse', { ...path(r), body: { reason, version: r.version } })),
  };
}

export type ForeignQueryCalls = ReturnType<typeof foreignQueriesApi>;
