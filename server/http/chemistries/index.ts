import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RouteDeps } from '../route-deps';
import { generalChemistryRoutes } from './general-routes';
import { chemistryKindRoutes } from './kind-routes';
import { kitRoutes } from './kit-routes';
import { CHEMISTRY_RESOURCES } from './kinds';

/** Chemistries (kits): /ystr-chemistries and /autosomal-chemistries to maintain, /chemistries to read both (spec 2.7, 7.1). */
export const chemistriesRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  for (const resource of CHEMISTRY_RESOURCES) await app.register(chemistryKindRoutes, { db, resource });
  await app.register(generalChemistryRoutes, { db });
  await app.register(kitRoutes, { db });
};
