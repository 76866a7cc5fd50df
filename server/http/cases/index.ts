import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RouteDeps } from '../route-deps';
import { agencyFileRoutes } from './agency-files-routes';
import { caseAuditRoutes } from './audit-routes';
import { caseCrudRoutes } from './crud-routes';
import { involvedPartyRoutes } from './involved-parties-routes';
import { physicalItemRoutes } from './physical-items-routes';

/** Everything under /cases (spec 2.8, 7.1). */
export const casesRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, deps) => {
  for (const plugin of [caseCrudRoutes, involvedPartyRoutes, physicalItemRoutes, agencyFileRoutes, caseAuditRoutes]) await app.register(plugin, deps);
};
