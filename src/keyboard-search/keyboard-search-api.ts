import type { Chemistry } from '../../core/schemas/chemistries';
import type { KeyboardSearchAnalysis, KeyboardSearchAnswer } from '../../core/schemas/keyboard-search';
import type { ListResult } from '../../core/schemas/list';
import type { Population } from '../../core/schemas/populations';
import type { KeyboardSearchRequest } from '../../machines/keyboardSearch.machine';
import type { ApiClient } from '../api/client';
import { unwrap } from '../api/unwrap';
import { calculatorApi } from '../analyses/calculator-api';
import { profilesApi, type ProfileFormOptions } from '../profiles/profiles-api';

/** A chemistry as the keyboard search offers it: its kind and its markers in kit order, each with what the allele rules need. */
export type SearchChemistry = ProfileFormOptions['chemistries'][number];

/**
 * A chemistry of the general list as the search offers it. That list does not say a marker's own
 * kind or whether it is multi-copy, so each is taken as the chemistry's kind, single-copy; the
 * server checks the typed alleles against the real marker either way.
 */
const fromChemistry = (c: Chemistry): SearchChemistry => ({ id: c.id, name: c.name, kind: c.kind, markers: c.markers.map((m) => ({ ...m, kind: c.kind, multiCopy: false })) });

/** The keyboard search's calls (spec 2.6, 7.1 `get-all-possible-hits`): the chemistries, the populations and analyses of a kind, the search. */
export function keyboardSearchApi(api: ApiClient) {
  const profiles = profilesApi(api);
  const calculator = calculatorApi(api);
  return {
    /**
     * The chemistries with their markers: the profile forms' options for a user who may add or edit
     * profiles (they carry each marker's kind), else the general chemistry list (chemistries Read).
     */
    chemistries: async (profileForms: boolean): Promise<SearchChemistry[]> => {
      if (profileForms) return (await profiles.formOptions()).chemistries;
      const list: ListResult<Chemistry> = await unwrap(api.GET('/api/chemistries', { params: { query: { pageSize: 500, sort: 'name:asc' } } }));
      return list.items.map(fromChemistry);
    },
    /** The organization's populations holding `kind` statistics. */
    populations: (orgId: string, kind: SearchChemistry['kind']): Promise<ListResult<Population>> => calculator.populations(orgId, kind),
    /** The analyses a search of `kind` can run, the ones it runs by default marked. */
    analyses: async (kind: SearchChemistry['kind']): Promise<KeyboardSearchAnalysis[]> =>
      (await unwrap(api.GET('/api/profiles/keyboard-search-analyses', { params: { query: { kind } } }))).items,
    search: (body: KeyboardSearchRequest): Promise<KeyboardSearchAnswer> => unwrap(api.POST('/api/profiles/get-all-possible-hits', { body })),
  };
}

export type KeyboardSearchCalls = ReturnType<typeof keyboardSearchApi>;
