import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { count, eq } from 'drizzle-orm';
import { z } from 'zod';
import { Citation, CitationInput, CitationSummary } from '../../../core/schemas/citations';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { ListQuery, listOf, Versioned } from '../../../core/schemas/list';
import { citations } from '../../db/schema';
import type { Db } from '../../db/database';
import type { RouteDeps } from '../route-deps';
import { BadRequest, NotFound } from '../errors';
import { listClauses } from '../list';
import { findOr404, updateVersioned } from '../../db/versioned';
import { checkCitationFile } from './citation-file';
import { fileResponse, sendAttachment } from '../content-disposition';
import { readMultipartForm } from '../multipart-form';

const ById = z.object({ id: Id });
const UpdateBody = CitationInput.extend(Versioned.shape);
const FileForm = z.object({ version: z.coerce.number().int().min(1) });
const tags = ['citations'];
const what = 'citation';

/** Every column but the file's bytes: lists and records never read the content. */
const described = {
  id: citations.id,
  title: citations.title,
  fileName: citations.fileName,
  fileSize: citations.fileSize,
  contentType: citations.contentType,
  version: citations.version,
  updatedAt: citations.updatedAt,
};
type Described = Pick<typeof citations.$inferSelect, keyof typeof described>;

const toSummary = (row: Described): CitationSummary => ({ id: row.id, title: row.title, fileName: row.fileName, fileSize: row.fileSize, version: row.version });
const toCitation = (row: Described): Citation => ({ ...toSummary(row), contentType: row.contentType, updatedAt: row.updatedAt.toISOString() });

async function describe(db: Db, id: string): Promise<Described> {
  const [row] = await db.select(described).from(citations).where(eq(citations.id, id));
  if (!row) throw new NotFound(`No ${what} with id ${id}`);
  return row;
}

/** Zod's field errors as the global error handler words them, for a form that arrived as multipart. */
function parseFields<T>(schema: z.ZodType<T>, fields: Record<string, string>): T {
  const result = schema.safeParse(fields);
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => ({ path: `/${issue.path.join('/')}`, message: issue.message }));
  throw new BadRequest('Your request was denied. Please validate your input.', details);
}

const fileColumns = (file: { fileName: string; bytes: Buffer }) => {
  const checked = checkCitationFile(file.fileName, file.bytes);
  return { fileName: checked.fileName, contentType: checked.contentType, fileSize: file.bytes.length, content: file.bytes };
};

/**
 * Citations (spec 2.7) with their attached file, kept in the database. Reading them, the table
 * included, needs an administrator with scope All, like every change (spec 6: core/permissions.ts).
 * Adding and replacing the file are multipart/form-data; renaming is JSON.
 */
export const citationsRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  app.get(
    '/citations',
    {
      config: { access: { entity: 'Citations', verb: 'Read' } },
      schema: { tags, summary: 'List citations', querystring: ListQuery, response: { 200: listOf(CitationSummary), 400: ErrorBody } },
    },
    async (request) => {
      const clauses = listClauses(
        request.query,
        {
          title: { expr: citations.title, sortable: true, searchable: true },
          fileName: { expr: citations.fileName, sortable: true, searchable: true },
          fileSize: { expr: citations.fileSize, sortable: true },
        },
        { defaultSort: 'title:asc', tiebreak: citations.id },
      );
      const rows = await db.select(described).from(citations).where(clauses.where).orderBy(...clauses.orderBy).limit(clauses.limit).offset(clauses.offset);
      const [total] = await db.select({ n: count() }).from(citations).where(clauses.where);
      return { items: rows.map(toSummary), count: total?.n ?? 0 };
    },
  );

  app.get(
    '/citations/:id',
    {
      config: { access: { entity: 'Citations', verb: 'Read' } },
      schema: { tags, summary: 'One citation', params: ById, response: { 200: Citation, 400: ErrorBody, 404: ErrorBody } },
    },
    async (request) => toCitation(await describe(db, request.params.id)),
  );

  app.post(
    '/citations',
    {
      config: { access: { entity: 'Citations', verb: 'Add' } },
      schema: {
        tags,
        summary: 'Add a citation',
        description: 'multipart/form-data: field `title`, optional part `file` (a document: PDF, Word, OpenDocument, RTF, text, spreadsheet or presentation).',
        response: { 201: Citation, 400: ErrorBody, 413: ErrorBody },
      },
    },
    async (request, reply) => {
      const form = await readMultipartForm(request);
      const { title } = parseFields(CitationInput, form.fields);
      const [row] = await db
        .insert(citations)
        .values({ title, ...(form.file ? fileColumns(form.file) : {}) })
        .returning(described);
      return reply.code(201).send(toCitation(row!));
    },
  );

  app.put(
    '/citations/:id',
    {
      config: { access: { entity: 'Citations', verb: 'Edit' } },
      schema: { tags, summary: 'Rename a citation', params: ById, body: UpdateBody, response: { 200: Citation, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody } },
    },
    async (request) => {
      const { title, version } = request.body;
      const row = await updateVersioned(db, citations, request.params.id, version, { title }, what);
      return toCitation(row);
    },
  );

  app.post(
    '/citations/:id/file',
    {
      config: { access: { entity: 'Citations', verb: 'Edit' } },
      schema: {
        tags,
        summary: 'Attach or replace the citation\u2019s file',
        description: 'multipart/form-data: field `version` (the version read) and part `file`.',
        params: ById,
        response: { 200: Citation, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody, 413: ErrorBody },
      },
    },
    async (request) => {
      const form = await readMultipartForm(request);
      const { version } = parseFields(FileForm, form.fields);
      if (!form.file) throw new BadRequest('Choose a file to attach');
      const row = await updateVersioned(db, citations, request.params.id, version, fileColumns(form.file), what);
      return toCitation(row);
    },
  );

  app.get(
    '/citations/:id/download',
    {
      config: { access: { entity: 'Citations', verb: 'Read' } },
      schema: {
        tags,
        summary: 'Download the citation\u2019s file',
        params: ById,
        response: {
          200: fileResponse(),
          400: ErrorBody,
          404: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const row = await findOr404(db, citations, request.params.id, what);
      if (!row.content || !row.fileName) throw new NotFound(`Citation "${row.title}" has no attached file`);
      return sendAttachment(reply, row.fileName, row.contentType ?? 'application/octet-stream', row.content);
    },
  );

  app.delete(
    '/citations/:id',
    {
      config: { access: { entity: 'Citations', verb: 'Delete' } },
      schema: { tags, summary: 'Delete a citation and its file', params: ById, response: { 204: z.null(), 400: ErrorBody, 404: ErrorBody } },
    },
    async (request, reply) => {
      const row = await describe(db, request.params.id);
      await db.delete(citations).where(eq(citations.id, row.id));
      return reply.code(204).send(null);
    },
  );
};
