import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createOutboxSender, smtpTransport } from '../../mail/outbox-sender';
import type { RouteDeps } from '../route-deps';
import { hitBulkDecisionRoutes } from './bulk-decision-routes';
import { hitDownloadRoute } from './download-route';
import { hitListRoutes } from './list-routes';
import { hitViewRoutes } from './view-routes';

/**
 * Everything under hits (spec 2.4, 4, 7.1). Publishing with notify queues e-mails; the sender
 * delivers them through SMTP when configured (and retries), else they stay in the outbox.
 */
export const hitsRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, deps) => {
  const sender = createOutboxSender({ db: deps.db, clock: deps.clock, transport: smtpTransport(deps.config), from: deps.config.mail.from, onError: (err) => app.log.error({ err }, 'e-mail delivery failed') });
  app.addHook('onReady', async () => sender.start());
  app.addHook('onClose', async () => sender.stop());
  for (const plugin of [hitListRoutes, hitViewRoutes(sender), hitBulkDecisionRoutes(sender), hitDownloadRoute]) await app.register(plugin, deps);
};
