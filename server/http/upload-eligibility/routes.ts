import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorBody } from '../../../core/schemas/common';
import { UploadEligibilityRules, UploadEligibilityRulesUpdate } from '../../../core/schemas/upload-eligibility';
import type { Db } from '../../db/database';
import { loadUploadRules, saveUploadRules } from '../../network/upload-rules';
import { auditBefore } from '../administration-audit';
import type { RouteDeps } from '../route-deps';

const tags = ['upload-eligibility-rules'];

/**
 * The level's upload eligibility rules (issue 32): which profiles may travel to the upper instance. An instance
 * setting: everyone signed in reads them (Settings Read), only an administrator with scope All changes them (Settings
 * Edit, core/permissions.ts). Registered among the administration areas, so a save is audited in its transaction.
 */
export const uploadEligibilityRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  app.get(
    '/upload-eligibility-rules',
    {
      config: { access: { entity: 'Settings', verb: 'Read' } },
      schema: { tags, summary: 'The upload eligibility rules of each index of the upper level', response: { 200: UploadEligibilityRules } },
    },
    async () => loadUploadRules(db),
  );

  app.put(
    '/upload-eligibility-rules',
    {
      config: { access: { entity: 'Settings', verb: 'Edit' } },
      schema: { tags, summary: 'Change the upload eligibility rules (every index, with the versions read)', body: UploadEligibilityRulesUpdate, response: { 200: UploadEligibilityRules, 400: ErrorBody, 409: ErrorBody } },
    },
    async (request) => {
      const { before, after } = await db.transaction((tx) => saveUploadRules(tx as unknown as Db, request.body));
      auditBefore(request, before);
      return after;
    },
  );
};
