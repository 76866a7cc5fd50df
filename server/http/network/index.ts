import type { FastifyPluginAsync } from 'fastify';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import { instanceRoutes } from './instance-routes';
import { lowerInstanceRoutes } from './lower-instance-routes';
import { serviceClientRoutes } from './service-client-routes';

/** The network of laboratories (issue 32): service clients, this instance's settings, its lower instances. */
export const networkRoutes: FastifyPluginAsync<{ db: Db; clock: Clock; config: Config }> = async (api, deps) => {
  await api.register(serviceClientRoutes, deps);
  await api.register(instanceRoutes, deps);
  await api.register(lowerInstanceRoutes, deps);
};
