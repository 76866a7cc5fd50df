import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { AgencyFile } from '../../../core/schemas/cases';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { appendAudit } from '../../audit/audit-trail';
import type { Db } from '../../db/database';
import { agencyFiles, users } from '../../db/schema';
import type { RouteDeps } from '../route-deps';
import { auditActor } from '../audit-actor';
import { fileResponse, sendAttachment } from '../content-disposition';
import { BadRequest, NotFound } from '../errors';
import { readMultipartForm } from '../multipart-form';
import { findVisibleCase } from './case-access';

const tags = ['cases'];
const ByCase = z.object({ caseId: Id });
const ById = z.object({ caseId: Id, id: Id });

// Served as downloads only; anything not recognised goes out as bytes, never as a page the browser runs.
const KNOWN_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  odt: 'application/vnd.oasis.opendocument.text',
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  msg: 'application/vnd.ms-outlook',
  eml: 'message/rfc822',
};

const contentTypeOf = (fileName: string) => KNOWN_TYPES[/\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? ''] ?? 'application/octet-stream';

const described = {
  id: agencyFiles.id,
  caseId: agencyFiles.caseId,
  fileName: agencyFiles.fileName,
  contentType: agencyFiles.contentType,
  fileSize: agencyFiles.fileSize,
  uploadedAt: agencyFiles.uploadedAt,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
};

interface Described {
  id: string;
  caseId: string;
  fileName: string;
  contentType: string;
  fileSize: number;
  uploadedAt: Date;
  // The uploader, null once their account is deleted.
  firstName: string | null;
  lastName: string | null;
  email: string | null;
}

function toAgencyFile(row: Described): AgencyFile {
  const uploader = row.email === null ? null : `${row.firstName ?? ''} ${row.lastName ?? ''}`.trim() || row.email;
  return { id: row.id, caseId: row.caseId, fileName: row.fileName, contentType: row.contentType, fileSize: row.fileSize, uploadedBy: uploader, uploadedAt: row.uploadedAt.toISOString() };
}

async function describeFiles(db: Db, caseId: string, id?: string): Promise<AgencyFile[]> {
  const rows = await db
    .select(described)
    .from(agencyFiles)
    .leftJoin(users, eq(users.id, agencyFiles.uploadedBy))
    .where(and(eq(agencyFiles.caseId, caseId), id ? eq(agencyFiles.id, id) : undefined))
    .orderBy(desc(agencyFiles.uploadedAt));
  return rows.map(toAgencyFile);
}

/** cases/{caseId}/agency-files (spec 7.1): files the requesting agency sent, uploaded and downloaded with the case. */
export const agencyFileRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db, clock }) => {
  app.get(
    '/cases/:caseId/agency-files',
    {
      config: { access: { entity: 'Cases', verb: 'Read' } },
      schema: { tags, summary: "A case's agency files, newest first", params: ByCase, response: { 200: z.object({ items: z.array(AgencyFile), count: z.number().int() }), 404: ErrorBody } },
    },
    async (request) => {
      const found = await findVisibleCase(db, request.user, request.params.caseId);
      const items = await describeFiles(db, found.id);
      return { items, count: items.length };
    },
  );

  app.post(
    '/cases/:caseId/agency-files',
    {
      config: { access: { entity: 'Cases', verb: 'Edit' } },
      schema: { tags, summary: 'Upload an agency file (multipart, field "file"; 413 above 20 MB)', params: ByCase, consumes: ['multipart/form-data'], response: { 201: AgencyFile, 400: ErrorBody, 404: ErrorBody, 413: ErrorBody } },
    },
    async (request, reply) => {
      const found = await findVisibleCase(db, request.user, request.params.caseId);
      const { file } = await readMultipartForm(request);
      if (!file || file.bytes.length === 0) throw new BadRequest('Choose a file to upload');
      const fileName = file.fileName.replace(/[\\/]/g, '_').slice(0, 255);
      const id = await db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        const [row] = await t
          .insert(agencyFiles)
          .values({ caseId: found.id, fileName, contentType: contentTypeOf(fileName), fileSize: file.bytes.length, content: file.bytes, uploadedBy: request.user.id, uploadedAt: clock.now() })
          .returning({ id: agencyFiles.id });
        await appendAudit(t, auditActor(request.user), clock, { entity: 'AgencyFile', entityId: row!.id, action: 'Uploaded', caseId: found.id, organizationId: found.organizationId, after: { fileName, fileSize: file.bytes.length } });
        return row!.id;
      });
      return reply.code(201).send((await describeFiles(db, found.id, id))[0]!);
    },
  );

  app.get(
    '/cases/:caseId/agency-files/:id/download',
    {
      config: { access: { entity: 'Cases', verb: 'Read' } },
      schema: { tags, summary: 'Download an agency file', params: ById, response: { 200: fileResponse(), 404: ErrorBody } },
    },
    async (request, reply) => {
      const found = await findVisibleCase(db, request.user, request.params.caseId);
      const [row] = await db.select().from(agencyFiles).where(and(eq(agencyFiles.id, request.params.id), eq(agencyFiles.caseId, found.id)));
      if (!row) throw new NotFound(`No agency file with id ${request.params.id} in this case`);
      return sendAttachment(reply, row.fileName, row.contentType, row.content);
    },
  );

  app.delete(
    '/cases/:caseId/agency-files/:id',
    {
      config: { access: { entity: 'Cases', verb: 'Edit' } },
      schema: { tags, summary: 'Delete an agency file', params: ById, response: { 204: z.null(), 404: ErrorBody } },
    },
    async (request, reply) => {
      const found = await findVisibleCase(db, request.user, request.params.caseId);
      const [existing] = await describeFiles(db, found.id, request.params.id);
      if (!existing) throw new NotFound(`No agency file with id ${request.params.id} in this case`);
      await db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        await t.delete(agencyFiles).where(eq(agencyFiles.id, existing.id));
        await appendAudit(t, auditActor(request.user), clock, { entity: 'AgencyFile', entityId: existing.id, action: 'Deleted', caseId: found.id, organizationId: found.organizationId, before: existing });
      });
      return reply.code(204).send(null);
    },
  );
};
