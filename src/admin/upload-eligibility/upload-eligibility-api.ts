import type { UploadEligibilityRules, UploadEligibilityRulesUpdate } from '../../../core/schemas/upload-eligibility';
import type { ApiClient } from '../../api/client';
import { unwrap } from '../../api/unwrap';

/** The calls of the upload eligibility area (server/http/upload-eligibility). */
export function uploadEligibilityApi(api: ApiClient) {
  return {
    get: (): Promise<UploadEligibilityRules> => unwrap(api.GET('/api/upload-eligibility-rules')),
    save: (body: UploadEligibilityRulesUpdate): Promise<UploadEligibilityRules> => unwrap(api.PUT('/api/upload-eligibility-rules', { body })),
  };
}

export type UploadEligibilityCalls = ReturnType<typeof uploadEligibilityApi>;
