import type { FastifyPluginAsync } from 'fastify';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import type { SearchRuntime } from '../../search/search-runtime';
import { foreignQueryRoutes } from './foreign-query-routes';
import { instanceRoutes } from './instance-routes';
import { lowerInstanceRoutes } from './lower-instance-routes';
import { releaseRequestRoutes } from './release-request-routes';
import { serviceClientRoutes } from './service-client-routes';

/** The network of laboratories (issue 32): service clients, this instance's settings, its lower instances, foreign queries. */
export const networkRoutes: FastifyPluginAsync<{ db: Db; clock: Clock; config: Config; search?: SearchRuntime }> = async (api, deps) => {
  await api.register(serviceClientRoutes, deps);
  await api.register(instanceRoutes, deps);
  await api.register(lowerInstanceRoutes, deps);
  await api.register(foreignQueryRoutes, deps);
  await api.register(releaseRequestRoutes, deps);
};
