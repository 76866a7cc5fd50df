import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { can } from '../../../core/permissions';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { FamilialPromoteAnswer, FamilialPromoteBody, FamilialSearchAnswer, FamilialSearchBody, FamilialSearchOptions } from '../../../core/schemas/familial-search';
import type { ProfileKind } from '../../matching/types';
import { familialRuleOptions } from '../../search/familial-rule';
import { Forbidden } from '../errors';
import { findVisibleProfile } from '../profiles/profile-query';
import type { RouteDeps } from '../route-deps';
import { familialSearch } from './familial-search';
import { promoteCandidates } from './promote';

const tags = ['profiles'];
const ById = z.object({ id: Id });
// Hits Publish: whoever reviews the organization's hits may look for relatives and promote them (issue 12).
const access = { entity: 'Hits', verb: 'Publish' } as const;
const errors = { 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 503: ErrorBody };

/**
 * Familial search on request (ARCHITECTURE.md "Search policy", issue 12): the rules and populations a
 * profile may be searched with, the ranked candidate list, and promoting chosen candidates to pending
 * hits. Hits Publish in the profile's organization; another organization's profile answers 404.
 */
export const familialSearchRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db, clock, search, events }) => {
  app.get(
    '/profiles/:id/familial-search/options',
    {
      config: { access },
      schema: { tags, summary: 'The on-request search rules a familial search of this profile may run, with their default populations, and the organization’s populations', params: ById, response: { 200: FamilialSearchOptions, 403: ErrorBody, 404: ErrorBody } },
    },
    async (request) => {
      const { profile } = await findVisibleProfile(db, request.user, request.params.id);
      if (!can(request.user, 'Hits', 'Publish', { orgId: profile.organizationId })) throw new Forbidden();
      return familialRuleOptions(db, { organizationId: profile.organizationId, sampleType: profile.sampleType, kind: profile.kind as ProfileKind });
    },
  );

  app.post(
    '/profiles/:id/familial-search',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Familial search: the profile’s relatives among the organization’s searched profiles, ranked by the smallest LR over the populations, with the expected chance candidates at each rank; stores an audit row only',
        params: ById,
        body: FamilialSearchBody,
        response: { 200: FamilialSearchAnswer, ...errors },
      },
    },
    async (request) => familialSearch({ db, clock, search }, request.user, request.params.id, request.body),
  );

  app.post(
    '/profiles/:id/familial-search/promote',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Promote chosen familial search candidates to pending hits; their figures are computed again on the server',
        params: ById,
        body: FamilialPromoteBody,
        response: { 200: FamilialPromoteAnswer, ...errors },
      },
    },
    async (request) => promoteCandidates({ db, clock, search, events }, request.user, request.params.id, request.body),
  );
};
