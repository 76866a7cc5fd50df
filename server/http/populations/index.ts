import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RouteDeps } from '../route-deps';
import { populationCrudRoutes } from './crud-routes';
import { populationStatisticsRoutes } from './statistics-routes';

/** The calls of this administration area (spec 2.7 / 7.1); every route declares config.access. */
export const populationsRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, deps) => {
  await app.register(populationCrudRoutes, deps);
  await app.register(populationStatisticsRoutes, deps);
};
