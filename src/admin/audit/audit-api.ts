import type { AuditEntry } from '../../../core/schemas/audit';
import type { ListQueryInput, ListResult } from '../../../core/schemas/list';
import type { ApiClient } from '../../api/client';
import { unwrap } from '../../api/unwrap';
import type { AuditExportFormat } from '../../ui/audit-trail/audit-trail';
import { saveResponseAsFile } from '../../ui/download';

/** A period of the trail as the administration screen asks for it: whole days in the reader's zone, optionally one record type. */
export interface AuditPeriodChoice {
  from: string;
  to: string;
  entity: string;
  timeZone: string;
}

const periodQuery = ({ from, to, entity, timeZone }: AuditPeriodChoice) => ({ from, to, timeZone, ...(entity ? { entity } : {}) });

/** The organization's trail over a period (organizations/{orgId}/audit) and its export (…/audit/export). */
export function auditApi(api: ApiClient) {
  return {
    list: (orgId: string, period: AuditPeriodChoice, query: ListQueryInput): Promise<ListResult<AuditEntry>> =>
      unwrap(api.GET('/api/organizations/{orgId}/audit', { params: { path: { orgId }, query: { ...query, ...periodQuery(period) } } })),
    /** Saves the period's trail as CSV or PDF with its hash chain verified; resolves to the file's name. */
    export: async (orgId: string, period: AuditPeriodChoice, format: AuditExportFormat): Promise<string> => {
      const { response } = await api.GET('/api/organizations/{orgId}/audit/export', { params: { path: { orgId }, query: { ...periodQuery(period), format } }, parseAs: 'stream' });
      return saveResponseAsFile(response, `audit-trail.${format}`);
    },
  };
}

export type AuditCalls = ReturnType<typeof auditApi>;
