import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { ProfileSearchRules } from '../../../core/schemas/search-rules';
import { profileSearchRules } from '../../search/profile-search-rules';
import type { RouteDeps } from '../route-deps';
import { findVisibleProfile } from './profile-query';

/** …/profiles/{id}/search-rules: which rules search the profile and which find it (ARCHITECTURE.md "Search policy"). */
export const profileSearchRulesRoute: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  app.get(
    '/profiles/:id/search-rules',
    {
      config: { access: { entity: 'Profiles', verb: 'Read' } },
      schema: { tags: ['profiles'], summary: 'The search rules that search this profile, and those under which it is searched', params: z.object({ id: Id }), response: { 200: ProfileSearchRules, 404: ErrorBody } },
    },
    async (request) => {
      const { profile } = await findVisibleProfile(db, request.user, request.params.id);
      return profileSearchRules(db, profile.sampleType);
    },
  );
};
