import type { FastifyPluginAsync } from 'fastify';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import { createUploadSender } from '../../network/upload-sender';
import type { SearchRuntime } from '../../search/search-runtime';
import { batchRoutes } from './batch-routes';
import { deliveryRoutes } from './delivery-routes';
import { foreignQueryRoutes } from './foreign-query-routes';
import { instanceRoutes } from './instance-routes';
import { lowerInstanceRoutes } from './lower-instance-routes';
import { releaseRequestRoutes } from './release-request-routes';
import { serviceClientRoutes } from './service-client-routes';

/**
 * The network of laboratories (issue 32): service clients, this instance's settings, its lower instances, the upload
 * outbox's sender (a background round every 30 s, off the request thread), the upper level's batch intake and foreign
 * queries (Prüm II).
 */
export const networkRoutes: FastifyPluginAsync<{ db: Db; clock: Clock; config: Config; search?: SearchRuntime }> = async (api, deps) => {
  const sender = createUploadSender({ db: deps.db, clock: deps.clock, onError: (err) => api.log.error({ err }, 'upload delivery failed') });
  api.addHook('onReady', async () => sender.start());
  api.addHook('onClose', async () => sender.stop());
  await api.register(serviceClientRoutes, deps);
  await api.register(instanceRoutes, deps);
  await api.register(lowerInstanceRoutes, deps);
  await api.register(batchRoutes, deps);
  await api.register(deliveryRoutes, { ...deps, sender });
  await api.register(foreignQueryRoutes, deps);
  await api.register(releaseRequestRoutes, deps);
};
