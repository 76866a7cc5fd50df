import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RouteDeps } from '../route-deps';
import { passwordRoutes } from './password-routes';
import { userRoutes } from './routes';

/** The calls of the Users area (spec 2.7 / 7.1) and the password calls; every route declares config.access. */
export const usersRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, deps) => {
  await app.register(userRoutes, deps);
  await app.register(passwordRoutes, deps);
};
