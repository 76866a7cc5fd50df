import { HIT_LISTS, type HitList, type HitListQuery, type HitSummary, type HitView, type PublishHitBody, type RejectHitBody, type ResetHitBody, type WeighHitAgainBody } from '../../core/schemas/hits';
import type { ListResult } from '../../core/schemas/list';
import type { ApiClient } from '../api/client';
import { unwrap } from '../api/unwrap';
import { saveResponseAsFile } from '../ui/download';

/** What a hit list is of: an organization (or `all`), a case or a profile. */
export type HitListOwner = { orgId: string } | { caseId: string } | { profileId: string };

// The typed paths of one list collection; the collection name comes from HIT_LISTS (spec 3: hits, pendingHits, …).
type Collection = (typeof HIT_LISTS)[HitList]['collection'];
type OrgPath = `/api/organizations/{orgId}/${Collection}`;
type CasePath = `/api/cases/{caseId}/${Collection}`;
type ProfilePath = `/api/profiles/{id}/${Collection}`;

/** The hit calls of spec 7.1: the lists, one hit (HitView), publish, reject, reset, weigh again, download. */
export function hitsApi(api: ApiClient) {
  const byId = (id: string) => ({ params: { path: { id } } });
  return {
    /** One list (Review = pending, Published, Rejected, All) of an organization, of every reachable one at `all`, of a case or of a profile. */
    list: (owner: HitListOwner, list: HitList, query: HitListQuery): Promise<ListResult<HitSummary>> => {
      const collection = HIT_LISTS[list].collection;
      if ('caseId' in owner) return unwrap(api.GET(`/api/cases/{caseId}/${collection}` as CasePath, { params: { path: { caseId: owner.caseId }, query } }));
      if ('profileId' in owner) return unwrap(api.GET(`/api/profiles/{id}/${collection}` as ProfilePath, { params: { path: { id: owner.profileId }, query } }));
      // At `all` the server lists every organization the user reaches.
      return unwrap(api.GET(`/api/organizations/{orgId}/${collection}` as OrgPath, { params: { path: { orgId: owner.orgId }, query } }));
    },
    view: (id: string): Promise<HitView> => unwrap(api.GET('/api/hits/{id}', byId(id))),
    publish: (id: string, body: PublishHitBody): Promise<HitView> => unwrap(api.POST('/api/hits/{id}/publish', { ...byId(id), body })),
    reject: (id: string, body: RejectHitBody): Promise<HitView> => unwrap(api.POST('/api/hits/{id}/reject', { ...byId(id), body })),
    reset: (id: string, body: ResetHitBody): Promise<HitView> => unwrap(api.POST('/api/hits/{id}/reset', { ...byId(id), body })),
    /** Weighs a pending identity hit again with the populations its rule uses now (issue 30). */
    weighAgain: (id: string, body: WeighHitAgainBody): Promise<HitView> => unwrap(api.POST('/api/hits/{id}/weigh-again', { ...byId(id), body })),
    /** Saves the hit's PDF report under the name the server gives; resolves to that name. */
    download: async (id: string): Promise<string> => {
      const { response } = await api.GET('/api/hits/{id}/download', { ...byId(id), parseAs: 'stream' });
      return saveResponseAsFile(response, 'hit.pdf');
    },
  };
}

export type HitCalls = ReturnType<typeof hitsApi>;
