import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { AuditEntry, AuditListQuery } from '../../../core/schemas/audit';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { listOf } from '../../../core/schemas/list';
import { auditLog } from '../../db/schema';
import type { RouteDeps } from '../route-deps';
import { listAudit } from '../audit-list';
import { findVisibleCase } from './case-access';
import { auditReader } from '../audit-reader';

/** cases/{caseId}/audit (spec 2.8 audit tab, ViewAudit): every write to the case, its parties, items, files and profiles. */
export const caseAuditRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  app.get(
    '/cases/:caseId/audit',
    {
      config: { access: { entity: 'Cases', verb: 'ViewAudit' } },
      schema: { tags: ['cases'], summary: "A case's audit trail", params: z.object({ caseId: Id }), querystring: AuditListQuery, response: { 200: listOf(AuditEntry), 400: ErrorBody, 404: ErrorBody } },
    },
    async (request) => {
      const found = await findVisibleCase(db, request.user, request.params.caseId);
      return listAudit(db, request.query, eq(auditLog.caseId, found.id), auditReader(request.user));
    },
  );
};
