import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { desc, eq, isNotNull, isNull } from 'drizzle-orm';
import { z } from 'zod';
import { OutboxList, type OutboxEntry, type UploadAction } from '../../../core/schemas/network-delivery';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { appendAudit } from '../../audit/audit-trail';
import type { Clock } from '../../clock';
import type { Db } from '../../db/database';
import { uploadOutbox } from '../../db/schema';
import { outboxBacklog } from '../../network/upload-outbox';
import type { UploadSender } from '../../network/upload-sender';
import { auditActor } from '../audit-actor';
import { Conflict, NotFound } from '../errors';
import { NETWORK_ADMINISTRATION } from './access';

const tags = ['network'];
const security = [{ bearer: [] }];
/** The list shows what waits or failed, and the latest delivered for context. */
const LIST_LIMIT = 200;
const DELIVERED_SHOWN = 20;

const stateOf = (r: typeof uploadOutbox.$inferSelect): OutboxEntry['state'] => (r.deliveredAt ? 'delivered' : r.refusedAt ? 'failed' : r.lastError ? 'retrying' : 'waiting');

const toEntry = (r: typeof uploadOutbox.$inferSelect): OutboxEntry => ({
  id: r.id,
  action: r.action as UploadAction,
  profileId: r.profileId,
  laboratory: r.laboratory,
  specimenId: r.specimenId,
  createdAt: r.createdAt.toISOString(),
  attempts: r.attempts,
  nextAttemptAt: r.nextAttemptAt?.toISOString() ?? null,
  lastError: r.lastError,
  state: stateOf(r),
  deliveredAt: r.deliveredAt?.toISOString() ?? null,
});

/** Administration → Network → Delivery (issue 32): what waits for the upper instance, what failed and why, a retry. */
export const deliveryRoutes: FastifyPluginAsyncZod<{ db: Db; clock: Clock; sender: UploadSender }> = async (app, { db, clock, sender }) => {
  const listing = async () => {
    const open = await db.select().from(uploadOutbox).where(isNull(uploadOutbox.deliveredAt)).orderBy(uploadOutbox.id).limit(LIST_LIMIT);
    const delivered = await db.select().from(uploadOutbox).where(isNotNull(uploadOutbox.deliveredAt)).orderBy(desc(uploadOutbox.deliveredAt)).limit(DELIVERED_SHOWN);
    return { items: [...open, ...delivered].map(toEntry), backlog: await outboxBacklog(db, clock) };
  };

  app.get(
    '/network/outbox',
    {
      config: { access: NETWORK_ADMINISTRATION },
      schema: { tags, summary: 'The upload outbox: undelivered entries (waiting, retrying, failed) first, then the latest delivered', security, response: { 200: OutboxList, 401: ErrorBody, 403: ErrorBody } },
    },
    listing,
  );

  app.post(
    '/network/outbox/:id/retry',
    {
      config: { access: NETWORK_ADMINISTRATION },
      schema: { tags, summary: 'Send a failed or retrying entry again with the next delivery, now', security, params: z.object({ id: Id }), response: { 200: OutboxList.shape.items.element, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody } },
    },
    async (request) => {
      const [row] = await db.select().from(uploadOutbox).where(eq(uploadOutbox.id, request.params.id));
      if (!row) throw new NotFound('No such outbox entry');
      if (row.deliveredAt) throw new Conflict('That entry was delivered already');
      const changed = await db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        const [updated] = await t.update(uploadOutbox).set({ refusedAt: null, nextAttemptAt: null }).where(eq(uploadOutbox.id, row.id)).returning();
        await appendAudit(t, auditActor(request.user), clock, { entity: 'UploadOutbox', entityId: row.id, action: 'Retry requested', before: { state: stateOf(row), lastError: row.lastError } });
        return updated!;
      });
      void sender.deliverPending().catch((err: unknown) => request.log.error({ err }, 'upload delivery failed'));
      return toEntry(changed);
    },
  );

  app.post(
    '/network/outbox/deliver',
    {
      config: { access: NETWORK_ADMINISTRATION },
      schema: { tags, summary: 'Deliver what is due now, without waiting for the next round; answers when the round ends', security, response: { 200: OutboxList, 401: ErrorBody, 403: ErrorBody } },
    },
    async () => {
      await sender.deliverPending();
      return listing();
    },
  );
};
