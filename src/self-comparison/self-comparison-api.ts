import type { SelfComparisonJob, SelfComparisonPair } from '../../core/schemas/self-comparison';
import type { SelfComparisonRequest } from '../../machines/selfComparison.machine';
import type { ApiClient } from '../api/client';
import { unwrap } from '../api/unwrap';
import { saveResponseAsFile } from '../ui/download';

export type PairKindFilter = 'all' | 'duplicate' | 'near-duplicate';

/** The self-comparison's calls (issue 15): the organization's last job, start, cancel, a page of pairs, the CSV. */
export function selfComparisonApi(api: ApiClient) {
  const org = (orgId: string) => ({ path: { orgId } });
  return {
    /** The last job, or null when none ran since the server started. */
    job: async (orgId: string): Promise<SelfComparisonJob | null> => unwrap(api.GET('/api/organizations/{orgId}/self-comparison', { params: org(orgId) })),
    start: (orgId: string, request: SelfComparisonRequest): Promise<SelfComparisonJob> => unwrap(api.POST('/api/organizations/{orgId}/self-comparison', { params: org(orgId), body: request })),
    cancel: (orgId: string): Promise<SelfComparisonJob> => unwrap(api.POST('/api/organizations/{orgId}/self-comparison/cancel', { params: org(orgId) })),
    pairs: (orgId: string, query: { page: number; pageSize: number; kind: PairKindFilter }): Promise<{ items: SelfComparisonPair[]; count: number }> =>
      unwrap(api.GET('/api/organizations/{orgId}/self-comparison/pairs', { params: { ...org(orgId), query } })),
    /** The chemistries to choose from (the profile forms' list: whoever may edit profiles may read it). */
    chemistries: async (): Promise<{ id: string; name: string; kind: string }[]> => (await unwrap(api.GET('/api/profiles/form-options'))).chemistries.map(({ id, name, kind }) => ({ id, name, kind })),
    /** Saves the report as CSV under the server's name; resolves to that name. */
    download: async (orgId: string): Promise<string> => {
      const { response } = await api.GET('/api/organizations/{orgId}/self-comparison/pairs.csv', { params: org(orgId), parseAs: 'stream' });
      return saveResponseAsFile(response, 'self-comparison.csv');
    },
  };
}

export type SelfComparisonCalls = ReturnType<typeof selfComparisonApi>;
