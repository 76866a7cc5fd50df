import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RouteDeps } from '../route-deps';
import { analysisRoutes } from './analysis-routes';
import { analyzeRoute } from './analyze-route';
import { constantRoutes } from './constant-routes';
import { formulaRoutes } from './formula-routes';
import { reportRoute } from './report-route';

/** Analyses with their formulae and constants (spec 2.5, 7.1: analyses/{id}/formulae and constants). */
export const analysesRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, deps) => {
  for (const plugin of [analysisRoutes, formulaRoutes, constantRoutes, analyzeRoute, reportRoute]) await app.register(plugin, deps);
};
