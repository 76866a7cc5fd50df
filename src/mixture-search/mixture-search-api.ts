import type { ListResult } from '../../core/schemas/list';
import type { MixtureSearchAnswer, MixtureSearchBody } from '../../core/schemas/mixtures';
import type { Population } from '../../core/schemas/populations';
import type { ProfileWithMarkers } from '../../core/schemas/profiles';
import type { AnalysisSummary } from '../../core/schemas/analysis-groups';
import type { SearchAnalysis } from '../../machines/mixtureSearch.machine';
import type { ApiClient } from '../api/client';
import { unwrap } from '../api/unwrap';
import { calculatorApi } from '../analyses/calculator-api';
import { profilesApi } from '../profiles/profiles-api';
import { keyboardSearchApi, type SearchChemistry } from '../keyboard-search/keyboard-search-api';

/** What the page needs before its form: the evidence profile, the active mixture analyses with their parameters, the autosomal populations. */
export interface MixtureSearchOptions {
  evidence: ProfileWithMarkers;
  analyses: SearchAnalysis[];
  populations: Population[];
}

/** What the search with a typed first replicate needs: the autosomal chemistries to type in (as the keyboard search reads them), the analyses, the populations. */
export interface TypedMixtureSearchOptions {
  chemistries: SearchChemistry[];
  analyses: SearchAnalysis[];
  populations: Population[];
}

/**
 * The mixture search's calls (issue 17): the evidence, the mixture analyses (every group's active ones of kind
 * Mixture, each read for its parameters), the populations, the profile pickers' search (the calculator's) and the
 * search itself, aborted when the user cancels.
 */
export function mixtureSearchApi(api: ApiClient) {
  const calculator = calculatorApi(api);
  const mixtureAnalyses = async (): Promise<SearchAnalysis[]> => {
    const groups = await unwrap(api.GET('/api/analysis-groups', { params: { query: { pageSize: 500, sort: 'name:asc' } } }));
    const query = { pageSize: 500, sort: 'name:asc', filter: JSON.stringify({ kind: 'Mixture' }) };
    const lists: ListResult<AnalysisSummary>[] = await Promise.all(
      groups.items.filter((g) => g.analysisCount > 0).map((g) => unwrap(api.GET('/api/analysis-groups/{id}/analyses', { params: { path: { id: g.id }, query } }))),
    );
    // The filter matches a kind containing the text: keep the exact kind.
    const summaries = lists.flatMap((l) => l.items).filter((a) => a.kind === 'Mixture' && a.active);
    const analyses = await Promise.all(summaries.map((a) => calculator.analysis(a.id)));
    return analyses.flatMap((a) => (a.mixture ? [{ id: a.id, name: a.name, mixture: a.mixture }] : []));
  };
  return {
    options: async (orgId: string, profileId: string): Promise<MixtureSearchOptions> => {
      const [evidence, analyses, populations] = await Promise.all([profilesApi(api).get(profileId), mixtureAnalyses(), calculator.populations(orgId, 'Autosomal')]);
      return { evidence, analyses, populations: populations.items };
    },
    /** The options without a stored evidence; `profileForms` as the keyboard search decides it (the profile forms' chemistries). */
    typedOptions: async (orgId: string, profileForms: boolean): Promise<TypedMixtureSearchOptions> => {
      const [chemistries, analyses, populations] = await Promise.all([keyboardSearchApi(api).chemistries(profileForms), mixtureAnalyses(), calculator.populations(orgId, 'Autosomal')]);
      return { chemistries: chemistries.filter((c) => c.kind === 'Autosomal'), analyses, populations: populations.items };
    },
    /** The calculator's calls: the profile pickers search the organization's profiles through them. */
    calculator,
    search: (body: MixtureSearchBody, signal?: AbortSignal): Promise<MixtureSearchAnswer> => unwrap(api.POST('/api/mixture-search', { body, ...(signal ? { signal } : {}) })),
  };
}

export type MixtureSearchCalls = ReturnType<typeof mixtureSearchApi>;
