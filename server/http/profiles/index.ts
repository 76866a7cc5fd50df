import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { approvalTokens, loadApprovalSecret } from '../../imports/approval-token';
import type { RouteDeps } from '../route-deps';
import { profileAddRoute } from './add-route';
import { profileAuditRoute } from './audit-route';
import { profileBulkReviewRoutes } from './bulk-review-routes';
import { profileCrudRoutes } from './crud-routes';
import { profileDownloadRoute } from './download-route';
import { profileImportRoute } from './import-route';
import { profileImportJobRoutes } from '../profile-imports/routes';
import { profileListRoutes } from './list-routes';
import { profileReviewRoutes } from './review-routes';
import { profileSearchRulesRoute } from './search-rules-route';
import { profileUploadEligibilityRoute } from './upload-eligibility-route';

/** Everything under /profiles (spec 2.3, 2.8, 4, 7.1). */
export const profilesRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, deps) => {
  const tokens = approvalTokens(await loadApprovalSecret(deps.db), deps.clock);
  for (const plugin of [profileListRoutes, profileCrudRoutes, profileAddRoute(tokens), profileImportRoute(tokens), profileImportJobRoutes(tokens), profileReviewRoutes, profileBulkReviewRoutes, profileDownloadRoute, profileAuditRoute, profileSearchRulesRoute, profileUploadEligibilityRoute]) {
    await app.register(plugin, deps);
  }
};
