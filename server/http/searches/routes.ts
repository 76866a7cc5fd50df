import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ALL_ORGANIZATIONS } from '../../../core/permissions';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { SearchJobList } from '../../../core/schemas/searches';
import type { RouteDeps } from '../route-deps';

/**
 * GET organizations/{orgId}/searches: the database searches queued by approvals in an organization
 * (`all`: every organization the user reaches), newest first, with their progress — long runs show
 * in the hit screens (issue 6). Profiles Read, as the searched profiles are named.
 */
export const searchesRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { search }) => {
  app.get(
    '/organizations/:orgId/searches',
    {
      config: { access: { entity: 'Profiles', verb: 'Read', orgParam: 'orgId' } },
      schema: {
        tags: ['profiles'],
        summary: 'Database searches of approved profiles with their progress (queued, running, done, failed), newest first',
        params: z.object({ orgId: z.union([Id, z.literal(ALL_ORGANIZATIONS)]) }),
        response: { 200: SearchJobList, 403: ErrorBody },
      },
    },
    async (request) => {
      const { orgId } = request.params;
      const user = request.user;
      const scope = orgId !== ALL_ORGANIZATIONS ? [orgId] : user.scope === 'All' ? null : user.organizationIds;
      const items = search?.queue.list(scope) ?? [];
      return { items, count: items.length };
    },
  );
};
