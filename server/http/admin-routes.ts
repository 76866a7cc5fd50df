import type { FastifyInstance } from 'fastify';
import type { AdminRouteDeps } from './admin-route-deps';
import { registerReferenceLists } from './reference-lists';
import { usersRoutes } from './users';
import { accessGroupsRoutes } from './access-groups';
import { markersRoutes } from './markers';
import { chemistriesRoutes } from './chemistries';
import { populationsRoutes } from './populations';
import { emailTemplatesRoutes } from './email-templates';
import { citationsRoutes } from './citations';
import { settingsTextsRoutes } from './settings-texts';
import { analysisGroupsRoutes } from './analysis-groups';

/** Every administration area's calls (spec 2.6 About/Contact and 2.7), under /api. */
export async function registerAdminRoutes(api: FastifyInstance, deps: AdminRouteDeps): Promise<void> {
  await registerReferenceLists(api, deps.db);
  for (const plugin of [
    usersRoutes,
    accessGroupsRoutes,
    markersRoutes,
    chemistriesRoutes,
    populationsRoutes,
    emailTemplatesRoutes,
    citationsRoutes,
    settingsTextsRoutes,
    analysisGroupsRoutes,
  ]) {
    await api.register(plugin, deps);
  }
}
