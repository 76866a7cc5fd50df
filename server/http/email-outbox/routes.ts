import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { count } from 'drizzle-orm';
import { z } from 'zod';
import { ErrorBody } from '../../../core/schemas/common';
import { ListQuery, listOf } from '../../../core/schemas/list';
import { emailOutbox } from '../../db/schema';
import type { RouteDeps } from '../route-deps';
import { listClauses } from '../list';

/** One e-mail in the outbox: what went (or waits) to whom, and whether it was delivered. */
export const OutboxEmail = z
  .object({
    id: z.uuid(),
    to: z.string(),
    subject: z.string(),
    text: z.string(),
    html: z.string().nullable(),
    templateKey: z.string(),
    createdAt: z.iso.datetime(),
    sentAt: z.iso.datetime().nullable(),
    error: z.string().nullable(),
    attempts: z.number().int(),
  })
  .meta({ id: 'OutboxEmail' });

/**
 * GET email-outbox: every e-mail Locus sent or holds, newest first (ARCHITECTURE.md: the outbox is
 * readable in the app in embedded mode). Administrators who manage e-mail templates read it.
 */
export const emailOutboxRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  app.get(
    '/email-outbox',
    {
      config: { access: { entity: 'EmailTemplates', verb: 'Edit' } },
      schema: { tags: ['email-templates'], summary: 'E-mails sent or waiting to be sent, newest first', querystring: ListQuery, response: { 200: listOf(OutboxEmail), 400: ErrorBody } },
    },
    async (request) => {
      const clauses = listClauses(
        request.query,
        {
          createdAt: { expr: emailOutbox.createdAt, sortable: true },
          sentAt: { expr: emailOutbox.sentAt, sortable: true },
          to: { expr: emailOutbox.to, sortable: true, searchable: true },
          subject: { expr: emailOutbox.subject, sortable: true, searchable: true },
          templateKey: { expr: emailOutbox.templateKey, sortable: true, searchable: true },
        },
        { defaultSort: 'createdAt:desc', tiebreak: emailOutbox.id },
      );
      const rows = await db.select().from(emailOutbox).where(clauses.where).orderBy(...clauses.orderBy).limit(clauses.limit).offset(clauses.offset);
      const [total] = await db.select({ n: count() }).from(emailOutbox).where(clauses.where);
      return {
        items: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), sentAt: r.sentAt?.toISOString() ?? null })),
        count: total?.n ?? 0,
      };
    },
  );
};
