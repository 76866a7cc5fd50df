import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { OrganizationMember } from '../../../core/schemas/task-requests';
import type { RouteDeps } from '../route-deps';
import { activeMembers } from './members';

/**
 * The organization's users by name (spec 2.2 "organization users"), for the dashboard and the task
 * assignee choice. Task Read suffices: whoever follows tasks needs to know who can take them; the
 * full user records stay behind Users Read.
 */
export const organizationMembersRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  app.get(
    '/organizations/:orgId/members',
    {
      config: { access: { entity: 'TaskRequests', verb: 'Read', orgParam: 'orgId' } },
      schema: {
        tags: ['task-requests'],
        summary: "The organization's active users (name, e-mail, role)",
        params: z.object({ orgId: Id }),
        response: { 200: z.object({ items: z.array(OrganizationMember) }), 403: ErrorBody },
      },
    },
    async (request) => ({ items: await activeMembers(db, request.params.orgId) }),
  );
};
