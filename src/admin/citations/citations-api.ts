import type { Citation, CitationInput, CitationSummary } from '../../../core/schemas/citations';
import type { ListQueryInput, ListResult } from '../../../core/schemas/list';
import type { ApiClient } from '../../api/client';
import { unwrap } from '../../api/unwrap';
import { saveResponseAsFile } from '../../ui/download';

/** A multipart body; the file part carries its name explicitly (some FormData implementations drop a File's own). */
function formOf(fields: Record<string, string>, file?: File): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append('file', file, file.name);
  return form;
}

/** The calls of the citations area (server/http/citations). Adding and attaching are multipart uploads. */
export function citationsApi(api: ApiClient) {
  const item = (id: string) => ({ params: { path: { id } } });
  return {
    list: (query: ListQueryInput): Promise<ListResult<CitationSummary>> => unwrap(api.GET('/api/citations', { params: { query } })),
    get: (id: string): Promise<Citation> => unwrap(api.GET('/api/citations/{id}', item(id))),
    // The OpenAPI document does not describe multipart bodies, hence `as never`; FormData passes through openapi-fetch untouched.
    add: (input: CitationInput, file?: File): Promise<Citation> => unwrap(api.POST('/api/citations', { body: formOf(input, file) as never })),
    rename: (id: string, body: CitationInput & { version: number }): Promise<Citation> => unwrap(api.PUT('/api/citations/{id}', { ...item(id), body })),
    attach: (id: string, version: number, file: File): Promise<Citation> =>
      unwrap(api.POST('/api/citations/{id}/file', { ...item(id), body: formOf({ version: String(version) }, file) as never })),
    /** Fetches the file with the bearer token and saves it under its own name; resolves to that name. */
    download: async (id: string): Promise<string> => {
      const { response } = await api.GET('/api/citations/{id}/download', { ...item(id), parseAs: 'stream' });
      return saveResponseAsFile(response, 'citation');
    },
    remove: (id: string): Promise<void> => unwrap(api.DELETE('/api/citations/{id}', item(id))).then(() => undefined),
  };
}
