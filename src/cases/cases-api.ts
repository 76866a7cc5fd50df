import { ALL_ORGANIZATIONS } from '../../core/permissions';
import type { AuditEntry } from '../../core/schemas/audit';
import type { Case, CaseInput, CaseSettingsInput, UpdateCaseBody } from '../../core/schemas/cases';
import type { ListQueryInput, ListResult } from '../../core/schemas/list';
import type { NamedRecord } from '../../core/schemas/named-record';
import type { Profile } from '../../core/schemas/profiles';
import type { ApiClient } from '../api/client';
import { unwrap } from '../api/unwrap';
import { saveResponseAsFile } from '../ui/download';
import type { AuditExportFormat } from '../ui/audit-trail/audit-trail';

/** What the case form offers: case types, reachable organizations, and the users assignable in the chosen organization. */
export interface CaseFormOptions {
  caseTypes: { id: string; name: string }[];
  organizations: { id: string; name: string }[];
  users: { id: string; name: string; email: string }[];
}

/** The calls of a case and its tabs (spec 7.1: cases, organizations/{id}/cases, cases/{caseId}/audit, profiles). */
export function casesApi(api: ApiClient) {
  const byId = (id: string) => ({ params: { path: { id } } });
  const byCase = (caseId: string, query: ListQueryInput) => ({ params: { path: { caseId }, query } });
  return {
    /** The cases of one organization, or of every one the user reaches when orgId is `all`. */
    list: (orgId: string, query: ListQueryInput): Promise<ListResult<Case>> =>
      orgId === ALL_ORGANIZATIONS
        ? unwrap(api.GET('/api/cases', { params: { query } }))
        : unwrap(api.GET('/api/organizations/{orgId}/cases', { params: { path: { orgId }, query } })),
    get: (id: string): Promise<Case> => unwrap(api.GET('/api/cases/{id}', byId(id))),
    add: (body: CaseInput): Promise<Case> => unwrap(api.POST('/api/cases', { body })),
    update: (id: string, body: UpdateCaseBody): Promise<Case> => unwrap(api.PUT('/api/cases/{id}', { ...byId(id), body })),
    remove: (id: string): Promise<void> => unwrap(api.DELETE('/api/cases/{id}', byId(id))).then(() => undefined),
    changeSettings: (id: string, body: CaseSettingsInput): Promise<Case> => unwrap(api.PUT('/api/cases/{id}/settings', { ...byId(id), body })),
    /** Assignable users come only with an organization. */
    formOptions: (organizationId: string | null): Promise<CaseFormOptions> =>
      unwrap(api.GET('/api/cases/form-options', { params: { query: organizationId ? { organizationId } : {} } })),
    /** An administrator with scope All adds these from the case form (spec 6). */
    addCaseType: (name: string): Promise<NamedRecord> => unwrap(api.POST('/api/case-types', { body: { name } })),
    addOrganization: (name: string): Promise<NamedRecord> => unwrap(api.POST('/api/organizations', { body: { name } })),
    audit: (caseId: string, query: ListQueryInput): Promise<ListResult<AuditEntry>> => unwrap(api.GET('/api/cases/{caseId}/audit', byCase(caseId, query))),
    /** Saves the case's audit trail as CSV or PDF (times in `timeZone`, the hash chain verified); resolves to the file's name. */
    exportAudit: async (caseId: string, format: AuditExportFormat, timeZone: string): Promise<string> => {
      const { response } = await api.GET('/api/cases/{caseId}/audit/export', { params: { path: { caseId }, query: { format, timeZone } }, parseAs: 'stream' });
      return saveResponseAsFile(response, `audit-trail.${format}`);
    },
    profiles: (caseId: string, query: ListQueryInput): Promise<ListResult<Profile>> => unwrap(api.GET('/api/cases/{caseId}/profiles', byCase(caseId, query))),
  };
}

export type CaseCalls = ReturnType<typeof casesApi>;
