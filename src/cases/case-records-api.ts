import type { InvolvedParty, InvolvedPartyInput, PhysicalItem, PhysicalItemInput } from '../../core/schemas/cases';
import type { ListQueryInput, ListResult } from '../../core/schemas/list';
import type { ApiClient } from '../api/client';
import { unwrap } from '../api/unwrap';

/** The five calls of a record kept inside a case: list, get, add, edit (with its version) and delete. */
export interface CaseRecordCalls<R, V> {
  list(caseId: string, query: ListQueryInput): Promise<ListResult<R>>;
  get(caseId: string, id: string): Promise<R>;
  add(caseId: string, values: V): Promise<R>;
  update(caseId: string, id: string, body: V & { version: number }): Promise<R>;
  remove(caseId: string, id: string): Promise<void>;
}

/**
 * cases/{caseId}/involved-parties and cases/{caseId}/physical-items (spec 7.1 nested paths). The
 * server builds both from one factory, so their calls have one shape; the involved-party paths give
 * the types and the record type is the caller's.
 */
function caseRecordCalls<R, V>(api: ApiClient, segment: 'involved-parties' | 'physical-items'): CaseRecordCalls<R, V> {
  const collection = `/api/cases/{caseId}/${segment}` as '/api/cases/{caseId}/involved-parties';
  const member = `/api/cases/{caseId}/${segment}/{id}` as '/api/cases/{caseId}/involved-parties/{id}';
  const at = (caseId: string, id: string) => ({ params: { path: { caseId, id } } });
  return {
    list: (caseId, query) => unwrap(api.GET(collection, { params: { path: { caseId }, query } })) as Promise<ListResult<R>>,
    get: (caseId, id) => unwrap(api.GET(member, at(caseId, id))) as Promise<R>,
    add: (caseId, values) => unwrap(api.POST(collection, { params: { path: { caseId } }, body: values as never })) as Promise<R>,
    update: (caseId, id, body) => unwrap(api.PUT(member, { ...at(caseId, id), body: body as never })) as Promise<R>,
    remove: (caseId, id) => unwrap(api.DELETE(member, at(caseId, id))).then(() => undefined),
  };
}

/** Involved parties of a case (spec 3 InvolvedParty). */
export const involvedPartiesApi = (api: ApiClient) => caseRecordCalls<InvolvedParty, InvolvedPartyInput>(api, 'involved-parties');

/** Physical items of a case (spec 3 PhysicalItem). */
export const physicalItemsApi = (api: ApiClient) => caseRecordCalls<PhysicalItem, PhysicalItemInput>(api, 'physical-items');
