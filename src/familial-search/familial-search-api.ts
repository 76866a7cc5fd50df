import type { FamilialPromoteAnswer, FamilialSearchAnswer, FamilialSearchOptions } from '../../core/schemas/familial-search';
import type { FamilialPromoteInput, FamilialSearchInput } from '../../machines/familialSearch.machine';
import type { ApiClient } from '../api/client';
import { unwrap } from '../api/unwrap';

/**
 * The familial search's calls (issue 12): what a profile may be searched with, the search, the
 * promotion. Cancel stops waiting for a search (the machine ignores its answer); the server's scan
 * is one short pass, so the request itself is not aborted.
 */
export function familialSearchApi(api: ApiClient) {
  const byId = (id: string) => ({ path: { id } });
  return {
    options: (profileId: string): Promise<FamilialSearchOptions> => unwrap(api.GET('/api/profiles/{id}/familial-search/options', { params: byId(profileId) })),
    search: ({ profileId, request }: FamilialSearchInput): Promise<FamilialSearchAnswer> => unwrap(api.POST('/api/profiles/{id}/familial-search', { params: byId(profileId), body: request })),
    promote: ({ profileId, body }: FamilialPromoteInput): Promise<FamilialPromoteAnswer> => unwrap(api.POST('/api/profiles/{id}/familial-search/promote', { params: byId(profileId), body })),
  };
}

export type FamilialSearchCalls = ReturnType<typeof familialSearchApi>;
