import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { ProfileUploadEligibility } from '../../../core/schemas/upload-eligibility';
import { profileUploadEligibility } from '../../network/upload-eligibility';
import type { RouteDeps } from '../route-deps';
import { findVisibleProfile } from './profile-query';

/** …/profiles/{id}/upload-eligibility: whether the profile may go to the upper level, and why not (issue 32). */
export const profileUploadEligibilityRoute: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  app.get(
    '/profiles/:id/upload-eligibility',
    {
      config: { access: { entity: 'Profiles', verb: 'Read' } },
      schema: { tags: ['profiles'], summary: 'Whether this profile may be uploaded to the upper level, and every reason it may not', params: z.object({ id: Id }), response: { 200: ProfileUploadEligibility, 404: ErrorBody } },
    },
    async (request) => {
      const { profile } = await findVisibleProfile(db, request.user, request.params.id);
      return profileUploadEligibility(db, profile);
    },
  );
};
