import type { ListQueryInput, ListResult } from '../../../core/schemas/list';
import type { SearchRule, SearchRuleFormOptions, SearchRuleInput, SearchRuleUpdate } from '../../../core/schemas/search-rules';
import type { ApiClient } from '../../api/client';
import { unwrap } from '../../api/unwrap';

/** The calls of the search rules area (server/http/search-rules). */
export function searchRulesApi(api: ApiClient) {
  return {
    list: (query: ListQueryInput): Promise<ListResult<SearchRule>> => unwrap(api.GET('/api/search-rules', { params: { query } })),
    get: (id: string): Promise<SearchRule> => unwrap(api.GET('/api/search-rules/{id}', { params: { path: { id } } })),
    formOptions: (): Promise<SearchRuleFormOptions> => unwrap(api.GET('/api/search-rules/form-options')),
    add: (body: SearchRuleInput): Promise<SearchRule> => unwrap(api.POST('/api/search-rules', { body })),
    update: (id: string, body: SearchRuleUpdate): Promise<SearchRule> => unwrap(api.PUT('/api/search-rules/{id}', { params: { path: { id } }, body })),
    remove: (id: string): Promise<void> => unwrap(api.DELETE('/api/search-rules/{id}', { params: { path: { id } } })).then(() => undefined),
  };
}

export type SearchRulesCalls = ReturnType<typeof searchRulesApi>;
