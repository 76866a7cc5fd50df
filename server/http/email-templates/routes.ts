import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { count, eq } from 'drizzle-orm';
import { z } from 'zod';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { EmailTemplate, EmailTemplateInput, EmailTemplateSummary, unknownPlaceholderMessage } from '../../../core/schemas/email-templates';
import { ListQuery, listOf, Versioned } from '../../../core/schemas/list';
import { emailTemplates } from '../../db/schema';
import { onUniqueViolation } from '../../db/errors';
import type { RouteDeps } from '../route-deps';
import { BadRequest, Conflict } from '../errors';
import { listClauses } from '../list';
import { findOr404, updateVersioned } from '../../db/versioned';

type Row = typeof emailTemplates.$inferSelect;

const ById = z.object({ id: Id });
const UpdateBody = EmailTemplateInput.extend(Versioned.shape);
const tags = ['email-templates'];
const what = 'email template';

const toSummary = (row: Row): EmailTemplateSummary => ({ id: row.id, hook: row.hook, subject: row.subject, version: row.version });
const toTemplate = (row: Row): EmailTemplate => ({ ...toSummary(row), body: row.body, updatedAt: row.updatedAt.toISOString() });

/** A template may use only the placeholders its hook fills; the 400 names the unknown ones and what the hook offers. */
function assertKnownPlaceholders(input: EmailTemplateInput): void {
  const problems = (['subject', 'body'] as const).flatMap((field) => {
    const message = unknownPlaceholderMessage(input.hook, input[field]);
    return message ? [{ path: `/${field}`, message }] : [];
  });
  if (problems[0]) throw new BadRequest(problems[0].message, problems);
}

const duplicateHook = (hook: string) => () => new Conflict(`A template for ${hook} already exists; edit that one instead`);

/** E-mail templates (spec 2.7): read by whoever may read them, changed only by an administrator with scope All. */
export const emailTemplatesRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  app.get(
    '/email-templates',
    {
      config: { access: { entity: 'EmailTemplates', verb: 'Read' } },
      schema: { tags, summary: 'List e-mail templates', querystring: ListQuery, response: { 200: listOf(EmailTemplateSummary), 400: ErrorBody } },
    },
    async (request) => {
      const clauses = listClauses(
        request.query,
        {
          hook: { expr: emailTemplates.hook, sortable: true, searchable: true },
          subject: { expr: emailTemplates.subject, sortable: true, searchable: true },
        },
        { defaultSort: 'hook:asc', tiebreak: emailTemplates.id },
      );
      const rows = await db.select().from(emailTemplates).where(clauses.where).orderBy(...clauses.orderBy).limit(clauses.limit).offset(clauses.offset);
      const [total] = await db.select({ n: count() }).from(emailTemplates).where(clauses.where);
      return { items: rows.map(toSummary), count: total?.n ?? 0 };
    },
  );

  app.get(
    '/email-templates/:id',
    {
      config: { access: { entity: 'EmailTemplates', verb: 'Read' } },
      schema: { tags, summary: 'One e-mail template', params: ById, response: { 200: EmailTemplate, 400: ErrorBody, 404: ErrorBody } },
    },
    async (request) => toTemplate(await findOr404(db, emailTemplates, request.params.id, what)),
  );

  app.post(
    '/email-templates',
    {
      config: { access: { entity: 'EmailTemplates', verb: 'Add' } },
      schema: { tags, summary: 'Add the template of a hook', body: EmailTemplateInput, response: { 201: EmailTemplate, 400: ErrorBody, 409: ErrorBody } },
    },
    async (request, reply) => {
      const input = request.body;
      assertKnownPlaceholders(input);
      const [row] = await onUniqueViolation(() => db.insert(emailTemplates).values(input).returning(), duplicateHook(input.hook));
      return reply.code(201).send(toTemplate(row!));
    },
  );

  app.put(
    '/email-templates/:id',
    {
      config: { access: { entity: 'EmailTemplates', verb: 'Edit' } },
      schema: { tags, summary: 'Save an e-mail template', params: ById, body: UpdateBody, response: { 200: EmailTemplate, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody } },
    },
    async (request) => {
      const { version, ...input } = request.body;
      assertKnownPlaceholders(input);
      const row = await onUniqueViolation(() => updateVersioned(db, emailTemplates, request.params.id, version, input, what), duplicateHook(input.hook));
      return toTemplate(row);
    },
  );

  app.delete(
    '/email-templates/:id',
    {
      config: { access: { entity: 'EmailTemplates', verb: 'Delete' } },
      schema: { tags, summary: 'Delete an e-mail template', params: ById, response: { 204: z.null(), 400: ErrorBody, 404: ErrorBody } },
    },
    async (request, reply) => {
      const row = await findOr404(db, emailTemplates, request.params.id, what);
      await db.delete(emailTemplates).where(eq(emailTemplates.id, row.id));
      return reply.code(204).send(null);
    },
  );
};
