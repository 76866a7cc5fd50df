import type { FastifyPluginAsync } from 'fastify';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import type { OrganizationEvents } from '../../events/organization-events';
import { createUploadSender } from '../../network/upload-sender';
import type { SearchRuntime } from '../../search/search-runtime';
import { batchRoutes } from './batch-routes';
import { candidateMatchRoutes } from './candidate-match-routes';
import { candidateNoticeRoutes } from './candidate-notice-routes';
import { deliveryRoutes } from './delivery-routes';
import { foreignQueryRoutes } from './foreign-query-routes';
import { instanceRoutes } from './instance-routes';
import { lowerInstanceRoutes } from './lower-instance-routes';
import { releaseRequestRoutes } from './release-request-routes';
import { serviceClientRoutes } from './service-client-routes';

/**
 * The network of laboratories (issue 32): service clients, this instance's settings, its lower instances, the upload
 * outbox's sender (a background round every 30 s, off the request thread), the upper level's batch intake and foreign
 * queries (Prüm II), candidate matches sent down and their decisions.
 */
export const networkRoutes: FastifyPluginAsync<{ db: Db; clock: Clock; config: Config; search?: SearchRuntime; events?: OrganizationEvents; wakeSender?: boolean }> = async (api, deps) => {
  const { events } = deps;
  const sender = createUploadSender({ db: deps.db, clock: deps.clock, events, onError: (err) => api.log.error({ err }, 'upload delivery failed') });
  // A profile approved, reset or deleted may have written an outbox entry: it goes up now, not at the next round.
  const unsubscribe = deps.wakeSender === false ? undefined : events?.subscribe(null, (_organizationId, change) => {
    if (change === 'profiles') sender.wake();
  });
  api.addHook('onReady', async () => sender.start());
  api.addHook('onClose', async () => {
    unsubscribe?.();
    await sender.stop();
  });
  await api.register(serviceClientRoutes, deps);
  await api.register(instanceRoutes, deps);
  await api.register(lowerInstanceRoutes, deps);
  await api.register(batchRoutes, deps);
  await api.register(deliveryRoutes, { ...deps, sender });
  await api.register(foreignQueryRoutes, deps);
  await api.register(releaseRequestRoutes, deps);
  await api.register(candidateNoticeRoutes, deps);
  await api.register(candidateMatchRoutes, { ...deps, sender: deps.wakeSender === false ? { ...sender, wake: () => undefined } : sender });
};
