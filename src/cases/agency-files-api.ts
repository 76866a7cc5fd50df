import type { AgencyFile } from '../../core/schemas/cases';
import type { ApiClient } from '../api/client';
import { unwrap } from '../api/unwrap';
import { saveResponseAsFile } from '../ui/download';

/** cases/{caseId}/agency-files (spec 7.1): the files the requesting agency sent with the case. */
export function agencyFilesApi(api: ApiClient) {
  const at = (caseId: string, id: string) => ({ params: { path: { caseId, id } } });
  return {
    list: async (caseId: string): Promise<AgencyFile[]> => (await unwrap(api.GET('/api/cases/{caseId}/agency-files', { params: { path: { caseId } } }))).items,
    /** A multipart upload, field "file"; the part carries the name explicitly (some FormData implementations drop a File's own). */
    upload: (caseId: string, file: File): Promise<AgencyFile> => {
      const form = new FormData();
      form.append('file', file, file.name);
      // The OpenAPI document does not describe multipart bodies; FormData passes through openapi-fetch untouched.
      return unwrap(api.POST('/api/cases/{caseId}/agency-files', { params: { path: { caseId } }, body: form as never }));
    },
    /** Saves the file under the name the server gives; resolves to that name. */
    download: async (caseId: string, file: AgencyFile): Promise<string> => {
      const { response } = await api.GET('/api/cases/{caseId}/agency-files/{id}/download', { ...at(caseId, file.id), parseAs: 'stream' });
      return saveResponseAsFile(response, file.fileName);
    },
    remove: (caseId: string, id: string): Promise<void> => unwrap(api.DELETE('/api/cases/{caseId}/agency-files/{id}', at(caseId, id))).then(() => undefined),
  };
}

export type AgencyFileCalls = ReturnType<typeof agencyFilesApi>;
