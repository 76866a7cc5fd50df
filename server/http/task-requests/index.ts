import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RouteDeps } from '../route-deps';
import { taskRequestCrudRoutes } from './crud-routes';
import { organizationMembersRoutes } from './members-route';

/** Task requests and the organization members they are assigned to (spec 2.2, 7.1 "task requests"). */
export const taskRequestsRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, deps) => {
  for (const plugin of [taskRequestCrudRoutes, organizationMembersRoutes]) await app.register(plugin, deps);
};
