import { ALL_ORGANIZATIONS } from '../../core/permissions';
import type { Analysis, AnalysisResult } from '../../core/schemas/analyses';
import type { AnalysisGroupSummary, AnalysisSummary } from '../../core/schemas/analysis-groups';
import { MAX_PAGE_SIZE, type ListQueryInput, type ListResult } from '../../core/schemas/list';
import type { Population } from '../../core/schemas/populations';
import type { Profile, ProfileKind } from '../../core/schemas/profiles';
import type { ContinuousLrBody, ContinuousLrResult, ContributorSearchJob, ContributorSearchStart } from '../../core/schemas/continuous';
import type { AnalyzeRequest } from '../../machines/analysisRun.machine';
import type { LoadedStain } from '../../machines/continuousRun.machine';
import type { ApiClient } from '../api/client';
import { unwrap } from '../api/unwrap';
import { saveResponseAsFile } from '../ui/download';

/** How many matches a profile search offers at once; the user narrows by typing. */
export const PROFILE_CHOICES = 50;

export type ReportFormat = 'pdf' | 'csv';

/** One analysis group and its analyses, as the analysis list shows them. */
export interface GroupOfAnalyses {
  group: AnalysisGroupSummary;
  analyses: AnalysisSummary[];
}

/** Every row of a list, read page by page in the list's order. */
async function everyRow<T>(read: (query: ListQueryInput) => Promise<ListResult<T>>, sort: string): Promise<T[]> {
  const rows: T[] = [];
  for (let page = 0; ; page++) {
    const { items, count } = await read({ page, pageSize: MAX_PAGE_SIZE, sort });
    rows.push(...items);
    if (items.length === 0 || rows.length >= count) return rows;
  }
}

/** The calls of the calculator (spec 2.5, 7.1 analyze): the analysis, the profiles and populations to choose from, the run and its report. */
export function calculatorApi(api: ApiClient) {
  return {
    analysis: (id: string): Promise<Analysis> => unwrap(api.GET('/api/analyses/{id}', { params: { path: { id } } })),
    groupAnalyses: (groupId: string, query: ListQueryInput): Promise<ListResult<AnalysisSummary>> =>
      unwrap(api.GET('/api/analysis-groups/{id}/analyses', { params: { path: { id: groupId }, query } })),
    /** Every analysis, grouped as Analysis groups groups them (issue 18): groups by name, each group's analyses by name. */
    analysesByGroup: async (): Promise<GroupOfAnalyses[]> => {
      const groups = await everyRow((query) => unwrap(api.GET('/api/analysis-groups', { params: { query } })), 'name:asc');
      return Promise.all(
        groups.map(async (group) => ({
          group,
          analyses: await everyRow((query) => unwrap(api.GET('/api/analysis-groups/{id}/analyses', { params: { path: { id: group.id }, query } })), 'name:asc'),
        })),
      );
    },
    /** Profiles of the analysis's kind: the case's when the calculator was opened from one, else the organization's; `search` matches sample and case number. */
    profiles: (orgId: string, caseId: string | null, kind: ProfileKind, search: string): Promise<ListResult<Profile>> => {
      const query: ListQueryInput = { pageSize: PROFILE_CHOICES, sort: 'profileId:asc', filter: JSON.stringify({ kind }), ...(search.trim() ? { search: search.trim() } : {}) };
      if (caseId) return unwrap(api.GET('/api/cases/{caseId}/profiles', { params: { path: { caseId }, query } }));
      return orgId === ALL_ORGANIZATIONS
        ? unwrap(api.GET('/api/profiles', { params: { query } }))
        : unwrap(api.GET('/api/organizations/{orgId}/profiles', { params: { path: { orgId }, query } }));
    },
    /** Populations holding the analysis's kind of statistics, that the user may use in `orgId`. */
    populations: (orgId: string, kind: ProfileKind): Promise<ListResult<Population>> => {
      const query: ListQueryInput = { pageSize: 500, sort: 'name:asc', filter: JSON.stringify({ kind }) };
      return orgId === ALL_ORGANIZATIONS
        ? unwrap(api.GET('/api/populations', { params: { query } }))
        : unwrap(api.GET('/api/organizations/{orgId}/populations', { params: { path: { orgId }, query } }));
    },
    analyze: ({ analysisId, body }: AnalyzeRequest, signal?: AbortSignal): Promise<AnalysisResult> =>
      unwrap(api.POST('/api/analyses/{id}/analyze', { params: { path: { id: analysisId } }, body, ...(signal ? { signal } : {}) })),
    /** One profile, as a picker names it. */
    profile: (profileId: string): Promise<Profile> => unwrap(api.GET('/api/profiles/{id}', { params: { path: { id: profileId } } })),
    /** A continuous run's stain (issue 31): the profile with its replicates and heights, and its kit's bins and thresholds (null when the kit cannot be read). */
    stain: async (profileId: string): Promise<LoadedStain> => {
      const profile = await unwrap(api.GET('/api/profiles/{id}', { params: { path: { id: profileId } } }));
      const kit = await unwrap(api.GET('/api/chemistries/{id}/alleles', { params: { path: { id: profile.chemistryId } } })).catch(() => null);
      return { profile, kit };
    },
    /** Weighs a stain with the continuous model (POST continuous-lr): fixed parameters or a fit, on the server's worker. */
    continuousLr: (body: ContinuousLrBody, signal?: AbortSignal): Promise<ContinuousLrResult> => unwrap(api.POST('/api/continuous-lr', { body, ...(signal ? { signal } : {}) })),
    /** Starts the number-of-contributors search (a job on the server's worker), reads it, cancels it. */
    contributorSearch: {
      start: (body: ContributorSearchStart): Promise<ContributorSearchJob> => unwrap(api.POST('/api/continuous-lr/contributor-search', { body })),
      read: (id: string): Promise<ContributorSearchJob> => unwrap(api.GET('/api/continuous-lr/contributor-search/{id}', { params: { path: { id } } })),
      cancel: (id: string): Promise<ContributorSearchJob> => unwrap(api.POST('/api/continuous-lr/contributor-search/{id}/cancel', { params: { path: { id } } })),
    },
    /** Runs the same continuous request again on the server and saves it as a PDF or CSV file; resolves to the file name. */
    continuousReport: async (body: ContinuousLrBody, format: ReportFormat): Promise<string> => {
      const { response } = await api.POST('/api/continuous-lr/report', { params: { query: { format } }, body, parseAs: 'stream' });
      return saveResponseAsFile(response, `continuous-lr.${format}`);
    },
    /** Runs the same request again on the server and saves the result as a PDF or CSV file; resolves to the file name. */
    report: async ({ analysisId, body }: AnalyzeRequest, format: ReportFormat): Promise<string> => {
      const { response } = await api.POST('/api/analyses/{id}/report', { params: { path: { id: analysisId }, query: { format } }, body, parseAs: 'stream' });
      return saveResponseAsFile(response, `analysis.${format}`);
    },
  };
}

export type CalculatorCalls = ReturnType<typeof calculatorApi>;
