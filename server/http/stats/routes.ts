import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { ALL_ORGANIZATIONS, can, canReachOrganization } from '../../../core/permissions';
import { ErrorBody } from '../../../core/schemas/common';
import { isStatsKey, Stats, STATS_ENTITY, STATS_KEYS, StatsQuery } from '../../../core/schemas/stats';
import type { Access } from '../access';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { Forbidden, NotFound } from '../errors';
import type { RouteDeps } from '../route-deps';
import { inReachableOrganizations } from '../tenancy';
import { computeStats, type OrganizationScope } from './stats-queries';

/**
 * Read of the entity the key counts. An unknown key passes, so the handler can answer 404 naming
 * the keys; the organization asked for is checked in the handler (tenancy).
 */
export const STATS_ACCESS: Access = {
  rule: 'Read of the entity the statistic counts',
  allows: (user, request) => {
    const key = (request.params as { key?: string } | undefined)?.key ?? '';
    return !isStatsKey(key) || can(user, STATS_ENTITY[key], 'Read');
  },
};

/** Rows of the organizations the user reaches, or of the one organization asked for. */
function organizationScope(user: AuthenticatedUser, orgId: string): OrganizationScope {
  if (orgId !== ALL_ORGANIZATIONS) return (column) => eq(column, orgId);
  return (column) => inReachableOrganizations(column, user);
}

/** `GET stats/{key}` (spec 7.1 "root/stats/{key}"): counts for the dashboard's charts. */
export const statsRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  app.get(
    '/stats/:key',
    {
      config: { access: STATS_ACCESS },
      schema: {
        tags: ['stats'],
        summary: `Statistics for the dashboard; key is one of ${STATS_KEYS.join(', ')}`,
        params: z.object({ key: z.string() }),
        querystring: StatsQuery,
        response: { 200: Stats, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const { key } = request.params;
      if (!isStatsKey(key)) throw new NotFound(`No statistic "${key}". The statistics are: ${STATS_KEYS.join(', ')}.`);
      const orgId = request.query.orgId ?? ALL_ORGANIZATIONS;
      // "all" is every organization the user reaches; one organization must be one of them.
      if (orgId !== ALL_ORGANIZATIONS && !canReachOrganization(request.user, orgId)) throw new Forbidden();
      return computeStats(db, key, organizationScope(request.user, orgId));
    },
  );
};
