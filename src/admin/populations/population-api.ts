import { ALL_ORGANIZATIONS } from '../../../core/permissions';
import type { ListQueryInput, ListResult } from '../../../core/schemas/list';
import type { NamedRecord } from '../../../core/schemas/named-record';
import type {
  CreatePopulationBody,
  Population,
  PopulationStatistics,
  StatisticsPreview,
  UpdatePopulationBody,
} from '../../../core/schemas/populations';
import type { ApiClient } from '../../api/client';
import { unwrap } from '../../api/unwrap';
import type { ChosenFile } from '../../../machines/populationUpload.machine';
import { saveResponseAsFile } from '../../ui/download';

/** A multipart body (fetch sets the boundary): the fields, part `file` and, when chosen, part `sampleSizes`, each file with its name. */
function formWith(fields: Record<string, string | null>, file: ChosenFile, sampleSizes: ChosenFile | null): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== null) form.append(name, value);
  form.append('file', file, file.name);
  if (sampleSizes) form.append('sampleSizes', sampleSizes, sampleSizes.name);
  return form;
}

/** What the upload sends besides the population: the file, its optional sample sizes, and the population chosen in it. */
export interface StatisticsUpload {
  file: ChosenFile;
  sampleSizesFile: ChosenFile | null;
  sourcePopulation: string | null;
}

/** The calls of the populations area (spec 7.1: organizations/{id}/populations, populations/{id}, …/download). */
export function populationApi(api: ApiClient) {
  const byId = (id: string) => ({ params: { path: { id } } });
  return {
    /** The populations of one organization, or every one the user may see when orgId is `all`. */
    list: (orgId: string, query: ListQueryInput): Promise<ListResult<Population>> =>
      orgId === ALL_ORGANIZATIONS
        ? unwrap(api.GET('/api/populations', { params: { query } }))
        : unwrap(api.GET('/api/organizations/{orgId}/populations', { params: { path: { orgId }, query } })),
    get: (id: string): Promise<Population> => unwrap(api.GET('/api/populations/{id}', byId(id))),
    add: (body: CreatePopulationBody): Promise<Population> => unwrap(api.POST('/api/populations', { body })),
    update: (id: string, body: UpdatePopulationBody): Promise<Population> => unwrap(api.PUT('/api/populations/{id}', { ...byId(id), body })),
    remove: (id: string): Promise<void> => unwrap(api.DELETE('/api/populations/{id}', byId(id))).then(() => undefined),
    statistics: (id: string): Promise<PopulationStatistics> => unwrap(api.GET('/api/populations/{id}/statistics', byId(id))),
    /** `sourcePopulation` picks one population of a file that holds several. */
    preview: (id: string, { file, sampleSizesFile, sourcePopulation }: StatisticsUpload): Promise<StatisticsPreview> =>
      unwrap(
        api.POST('/api/populations/{id}/statistics/preview', { ...byId(id), body: formWith({ population: sourcePopulation }, file, sampleSizesFile) as never }),
      ),
    saveStatistics: (id: string, { file, sampleSizesFile, sourcePopulation }: StatisticsUpload, version: number): Promise<Population> =>
      unwrap(
        api.POST('/api/populations/{id}/statistics', {
          ...byId(id),
          body: formWith({ version: String(version), population: sourcePopulation }, file, sampleSizesFile) as never,
        }),
      ),
    /** Saves the statistics as CSV under the name the server gives (spec 7.1); resolves to that name. */
    download: async (id: string, fallbackName: string): Promise<string> => {
      const { response } = await api.GET('/api/populations/{id}/download', { ...byId(id), parseAs: 'stream' });
      return saveResponseAsFile(response, fallbackName);
    },
    /** Every organization, for an administrator with scope All choosing whom to share with. */
    organizations: (): Promise<ListResult<NamedRecord>> =>
      unwrap(api.GET('/api/organizations', { params: { query: { pageSize: 500, sort: 'name:asc' } } })),
  };
}

export type PopulationCalls = ReturnType<typeof populationApi>;
