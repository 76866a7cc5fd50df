import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { BatchAnswer, BatchBody } from '../../../core/schemas/network-delivery';
import { ErrorBody } from '../../../core/schemas/common';
import { appendAudit, type AuditActor } from '../../audit/audit-trail';
import type { Clock } from '../../clock';
import type { Db } from '../../db/database';
import { onUniqueViolation } from '../../db/errors';
import { lowerInstances, serviceClients } from '../../db/schema';
import { applyBatch, BatchRefused, readBatch } from '../../network/batch-intake';
import { BatchRejected } from '../../network/batch-signature';
import type { SearchRuntime } from '../../search/search-runtime';
import { auditActor } from '../audit-actor';
import { BadRequest, Conflict, Forbidden } from '../errors';
import { NETWORK_SERVICE } from './access';

/** Records a refusal in its own transaction (the batch's rolled back): the trail keeps every refused batch. */
async function auditRefusal(db: Db, clock: Clock, actor: AuditActor, entityId: string, why: unknown): Promise<void> {
  await db.transaction((tx) => appendAudit(tx as unknown as Db, actor, clock, { entity: 'NetworkBatch', entityId, action: 'Refused', after: why }));
}

/**
 * The upper level's intake of batches from its lower instances (issue 32): the caller's service client must be a
 * registered lower instance's, the JWS must verify under its credentials (batch-signature.ts), and the batch is applied
 * in one transaction (batch-intake.ts). A refusal is audited and answered with what was wrong; a batch already applied
 * is answered as such and not applied again. Applied profiles then join this level's index and its search rules run.
 */
export const batchRoutes: FastifyPluginAsyncZod<{ db: Db; clock: Clock; search?: SearchRuntime }> = async (app, { db, clock, search }) => {
  app.post(
    '/network/batches',
    {
      config: { access: NETWORK_SERVICE },
      bodyLimit: 16 * 1024 * 1024,
      schema: {
        tags: ['network'],
        summary: 'A lower instance’s signed batch of profile uploads, resets and deletions; applied whole or not at all',
        security: [{ bearer: [] }],
        body: BatchBody,
        response: { 200: BatchAnswer, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => {
      const service = request.user.service!;
      const actor = auditActor(request.user);
      const [client] = await db.select().from(serviceClients).where(eq(serviceClients.id, service.serviceClientId));
      const [instance] = await db.select().from(lowerInstances).where(eq(lowerInstances.serviceClientId, service.serviceClientId));
      if (!instance || !client) {
        await auditRefusal(db, clock, actor, service.serviceClientId, { serviceClient: service.name, reason: 'not a registered lower instance' });
        throw new Forbidden(`The service client "${service.name}" is not registered here as a lower instance: register it under Administration → Network first`);
      }
      let content, reads;
      try {
        // Verified and its documents read on a worker thread, before the transaction opens.
        ({ content, reads } = await readBatch(db, request.body.batch, client));
      } catch (err) {
        if (!(err instanceof BatchRejected)) throw err;
        await auditRefusal(db, clock, actor, instance.id, { lowerInstance: instance.name, reason: err.message });
        throw new BadRequest(err.message);
      }
      let applied;
      try {
        // Two deliveries of one entry at once (a lease run out at the sender): the second waits for the next try, then reads "already applied".
        applied = await onUniqueViolation(
          () => db.transaction((tx) => applyBatch(tx as unknown as Db, clock, actor, instance, content, reads)),
          () => new Conflict('Another delivery of this batch or of one of its entries was being applied at the same time; nothing of this one was applied: send it again'),
        );
      } catch (err) {
        if (!(err instanceof BatchRefused)) throw err;
        await auditRefusal(db, clock, actor, content.batchId, { lowerInstance: instance.name, refused: err.refused });
        throw new BadRequest(err.message, { refused: err.refused });
      }
      if (applied.answer.status === 'already applied') {
        await auditRefusal(db, clock, actor, content.batchId, { lowerInstance: instance.name, reason: 'replayed: this batch was applied before; nothing was applied again' });
      }
      // Committed: the profiles join (or leave) this level's index, and an approved one is searched by its rules.
      await search?.decidedAll(applied.changed);
      return applied.answer;
    },
  );
};
