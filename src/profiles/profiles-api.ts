import { ALL_ORGANIZATIONS } from '../../core/permissions';
import type { AuditEntry } from '../../core/schemas/audit';
import type { InvolvedParty, PhysicalItem } from '../../core/schemas/cases';
import type { ListQueryInput, ListResult } from '../../core/schemas/list';
import type { ProfileImportJob } from '../../core/schemas/profile-imports';
import {
  APPROVAL_HEADER,
  APPROVAL_TOKEN_HEADER,
  type AddProfilesBody,
  type ApproveProfileBody,
  type Profile,
  type ProfileWithMarkers,
  type RejectProfileBody,
  type ResetProfileBody,
  type UpdateMarkersBody,
  type UpdateProfileBody,
} from '../../core/schemas/profiles';
import type { AddImportRequest, JobView, PageRequest, RowsPage } from '../../machines/profileImport.machine';
import type { ChosenFile } from '../../machines/populationUpload.machine';
import type { ApiClient } from '../api/client';
import type { components } from '../api/schema';
import { unwrap } from '../api/unwrap';
import { saveResponseAsFile } from '../ui/download';
import type { CmfDownloadChoices } from '../../core/schemas/cmf-download';
import type { AuditExportFormat } from '../ui/audit-trail/audit-trail';

/** What the profile forms offer (GET /api/profiles/form-options): chemistries with their ordered markers, sample sources, laboratories. */
export type ProfileFormOptions = components['schemas']['ProfileFormOptions'];

export type DownloadFormat = 'cmf' | 'csv';

/** GET /api/profiles/{id}/search-rules. */
export type ProfileSearchRules = components['schemas']['ProfileSearchRules'];
export type ProfileUploadEligibility = components['schemas']['ProfileUploadEligibility'];

/** A job as an import call answers it, with the approval token of its `Approval-Token` header (spec 4). */
async function jobView(call: Promise<{ data?: ProfileImportJob; response: Response }>): Promise<JobView> {
  const { data, response } = await call;
  return { job: data!, token: response.headers.get(APPROVAL_TOKEN_HEADER) };
}

/** The profile calls of spec 7.1 (profiles, organizations/{id}/profiles, cases/{id}/profiles, profile imports, review, download, audit). */
export function profilesApi(api: ApiClient) {
  const byId = (id: string) => ({ params: { path: { id } } });
  return {
    /** Profiles of one organization, or of every reachable one at `all` (spec 2.3); `status: 'pending'` is the Review list. */
    list: (orgId: string, query: ListQueryInput & { status?: Profile['status'] }): Promise<ListResult<Profile>> =>
      orgId === ALL_ORGANIZATIONS
        ? unwrap(api.GET('/api/profiles', { params: { query } }))
        : unwrap(api.GET('/api/organizations/{orgId}/profiles', { params: { path: { orgId }, query } })),
    listOfCase: (caseId: string, query: ListQueryInput): Promise<ListResult<Profile>> =>
      unwrap(api.GET('/api/cases/{caseId}/profiles', { params: { path: { caseId }, query } })),
    get: (id: string): Promise<ProfileWithMarkers> => unwrap(api.GET('/api/profiles/{id}', byId(id))),
    formOptions: (): Promise<ProfileFormOptions> => unwrap(api.GET('/api/profiles/form-options')),
    /** The case's physical items, for the Item select. */
    items: (caseId: string): Promise<ListResult<PhysicalItem>> =>
      unwrap(api.GET('/api/cases/{caseId}/physical-items', { params: { path: { caseId }, query: { pageSize: 500, sort: 'itemId:asc' } } })),
    /** The case's involved parties, for the Taken from select (issue 18). */
    parties: (caseId: string): Promise<ListResult<InvolvedParty>> =>
      unwrap(api.GET('/api/cases/{caseId}/involved-parties', { params: { path: { caseId }, query: { pageSize: 500, sort: 'title:asc' } } })),
    update: (id: string, body: UpdateProfileBody): Promise<ProfileWithMarkers> => unwrap(api.PUT('/api/profiles/{id}', { ...byId(id), body })),
    updateMarkers: (id: string, body: UpdateMarkersBody): Promise<ProfileWithMarkers> =>
      unwrap(api.PUT('/api/profiles/{id}/markers', { ...byId(id), body })),
    remove: (id: string): Promise<void> => unwrap(api.DELETE('/api/profiles/{id}', byId(id))).then(() => undefined),
    /** Adds profiles: one by hand (no token), or a confirmed import with its approval token. */
    add: (body: AddProfilesBody, approvalToken?: string): Promise<ListResult<Profile>> =>
      unwrap(api.POST('/api/profiles', { body, ...(approvalToken ? { headers: { [APPROVAL_HEADER]: approvalToken } } : {}) })),
    // Profile imports as jobs (server/http/profile-imports): upload, follow, page, confirm, stop, resume, discard.
    /** Uploads a file to be read in the background for the case; answers at once with the job (state `parsing`). */
    upload: (file: ChosenFile, caseId: string): Promise<JobView> => {
      const form = new FormData();
      form.append('caseId', caseId);
      form.append('file', file, file.name);
      // The OpenAPI document does not describe multipart bodies; FormData passes through openapi-fetch untouched.
      return jobView(api.POST('/api/profile-imports', { body: form as never }));
    },
    /** The signed-in user's unfinished imports of the case (reading, waiting for a confirmation, checking, adding, interrupted), newest first. */
    unfinishedImports: (caseId: string): Promise<ListResult<ProfileImportJob>> =>
      unwrap(api.GET('/api/profile-imports', { params: { query: { caseId, open: 'true' } } })),
    importJob: (id: string): Promise<JobView> => jobView(api.GET('/api/profile-imports/{id}', byId(id))),
    importRows: ({ importId, page, pageSize, filter, chemistryId }: PageRequest): Promise<RowsPage> =>
      unwrap(api.GET('/api/profile-imports/{id}/profiles', { params: { path: { id: importId }, query: { page, pageSize, filter, ...(chemistryId ? { chemistryId } : {}) } } })),
    /** Confirms an import with the approval token of its last read; the server checks, then adds in batches. */
    addImport: ({ importId, token, body }: AddImportRequest): Promise<JobView> =>
      jobView(api.POST('/api/profile-imports/{id}/add', { params: { path: { id: importId }, header: { approval: token } }, body })),
    cancelImport: (id: string): Promise<JobView> => jobView(api.POST('/api/profile-imports/{id}/cancel', byId(id))),
    resumeImport: (id: string): Promise<JobView> => jobView(api.POST('/api/profile-imports/{id}/resume', byId(id))),
    discardImport: (id: string): Promise<void> => unwrap(api.DELETE('/api/profile-imports/{id}', byId(id))).then(() => undefined),
    approve: (id: string, body: ApproveProfileBody): Promise<ProfileWithMarkers> => unwrap(api.POST('/api/profiles/{id}/approve', { ...byId(id), body })),
    reject: (id: string, body: RejectProfileBody): Promise<ProfileWithMarkers> => unwrap(api.POST('/api/profiles/{id}/reject', { ...byId(id), body })),
    reset: (id: string, body: ResetProfileBody): Promise<ProfileWithMarkers> => unwrap(api.POST('/api/profiles/{id}/reset', { ...byId(id), body })),
    resetDelete: (id: string): Promise<ProfileWithMarkers> => unwrap(api.POST('/api/profiles/{id}/reset-delete', byId(id))),
    /** Saves the profile as CMF XML or CSV under the name the server gives; resolves to that name. */
    /** Saves the profile as CMF or CSV; a CMF download may name its specimen category, specimen id and submitter. */
    download: async (id: string, format: DownloadFormat, fallbackName: string, choices?: CmfDownloadChoices): Promise<string> => {
      const { response } = await api.GET('/api/profiles/{id}/download', { params: { path: { id }, query: { format, ...choices } }, parseAs: 'stream' });
      return saveResponseAsFile(response, fallbackName);
    },
    audit: (id: string, query: ListQueryInput): Promise<ListResult<AuditEntry>> => unwrap(api.GET('/api/profiles/{id}/audit', { params: { path: { id }, query } })),
    /** Saves the profile's audit trail as CSV or PDF (times in `timeZone`, the hash chain verified); resolves to the file's name. */
    exportAudit: async (id: string, format: AuditExportFormat, timeZone: string): Promise<string> => {
      const { response } = await api.GET('/api/profiles/{id}/audit/export', { params: { path: { id }, query: { format, timeZone } }, parseAs: 'stream' });
      return saveResponseAsFile(response, `audit-trail.${format}`);
    },
    /** Which search rules search the profile and which find it (ARCHITECTURE.md "Search policy"). */
    searchRules: (id: string): Promise<ProfileSearchRules> => unwrap(api.GET('/api/profiles/{id}/search-rules', byId(id))),
    /** Whether the profile may be uploaded to the upper level, and every reason it may not (issue 32). */
    uploadEligibility: (id: string): Promise<ProfileUploadEligibility> => unwrap(api.GET('/api/profiles/{id}/upload-eligibility', byId(id))),
  };
}

export type ProfileCalls = ReturnType<typeof profilesApi>;
