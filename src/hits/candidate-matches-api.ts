import type { CandidateMatch } from '../../core/schemas/candidate-matches';
import type { ApiClient } from '../api/client';
import { unwrap } from '../api/unwrap';

/** The candidate matches the upper instance sent down (issue 32) and their decisions. */
export function candidateMatchesApi(api: ApiClient) {
  const path = (m: CandidateMatch) => ({ params: { path: { id: m.id } } });
  return {
    list: async (organizationId: string): Promise<CandidateMatch[]> => (await unwrap(api.GET('/api/candidate-matches', { params: { query: { organizationId } } }))).items,
    confirm: (m: CandidateMatch): Promise<CandidateMatch> => unwrap(api.POST('/api/candidate-matches/{id}/confirm', { ...path(m), body: { version: m.version } })),
    reject: (m: CandidateMatch, reason: string): Promise<CandidateMatch> => unwrap(api.POST('/api/candidate-matches/{id}/reject', { ...path(m), body: { reason, version: m.version } })),
  };
}

export type CandidateMatchCalls = ReturnType<typeof candidateMatchesApi>;
