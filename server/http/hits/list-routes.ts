import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and } from 'drizzle-orm';
import { z } from 'zod';
import { ALL_ORGANIZATIONS } from '../../../core/permissions';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { HIT_LISTS, HitListQuery, HitSummary, type HitList } from '../../../core/schemas/hits';
import { listOf } from '../../../core/schemas/list';
import type { Access } from '../access';
import type { RouteDeps } from '../route-deps';
import { findVisibleCase } from '../cases/case-access';
import { findVisibleProfile } from '../profiles/profile-query';
import { hitsOfCase, hitsOfProfile, listHits, organizationHitScope, reachableHits } from './hit-query';

const tags = ['hits'];
const response = { 200: listOf(HitSummary), 400: ErrorBody, 404: ErrorBody };

/** Spec 6: the Review, Published and Rejected lists need Hits Publish; All needs only Hits Read. */
export const hitListAccess = (list: HitList, orgParam?: string): Access => ({ entity: 'Hits', verb: list === 'all' ? 'Read' : 'Publish', ...(orgParam ? { orgParam } : {}) });

/**
 * The hit lists (spec 2.4 tabs, spec 3 Case hits/pendingHits/publishedHits/rejectedHits) of an
 * organization (or `all` of them), of a case and of a profile. Every list shows only hits of an
 * organization the user reaches.
 */
export const hitListRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  for (const [list, { collection, label }] of Object.entries(HIT_LISTS) as [HitList, (typeof HIT_LISTS)[HitList]][]) {
    const status = list === 'all' ? null : list;

    app.get(
      `/organizations/:orgId/${collection}`,
      {
        config: { access: hitListAccess(list, 'orgId') },
        schema: {
          tags,
          summary: `${label} hits of an organization (all: every organization the user reaches)`,
          params: z.object({ orgId: z.union([Id, z.literal(ALL_ORGANIZATIONS)]) }),
          querystring: HitListQuery,
          response,
        },
      },
      async (request) => {
        return listHits(db, request.query, organizationHitScope(request.user, request.params.orgId), status);
      },
    );

    app.get(
      `/cases/:caseId/${collection}`,
      {
        config: { access: hitListAccess(list) },
        schema: { tags, summary: `${label} hits naming a profile of the case`, params: z.object({ caseId: Id }), querystring: HitListQuery, response },
      },
      async (request) => {
        const found = await findVisibleCase(db, request.user, request.params.caseId);
        return listHits(db, request.query, { where: and(reachableHits(request.user), hitsOfCase(db, found.id)) }, status);
      },
    );

    app.get(
      `/profiles/:id/${collection}`,
      {
        config: { access: hitListAccess(list) },
        schema: { tags, summary: `${label} hits naming the profile`, params: z.object({ id: Id }), querystring: HitListQuery, response },
      },
      async (request) => {
        const { profile } = await findVisibleProfile(db, request.user, request.params.id);
        return listHits(db, request.query, { where: and(reachableHits(request.user), hitsOfProfile(db, profile.id)) }, status);
      },
    );
  }
};
