import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { AuditEntry, AuditListQuery } from '../../../core/schemas/audit';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { listOf } from '../../../core/schemas/list';
import { auditLog } from '../../db/schema';
import type { RouteDeps } from '../route-deps';
import { listAudit } from '../audit-list';
import { findVisibleProfile } from './profile-query';
import { auditReader } from '../audit-reader';

/** …/profiles/{sampleid}/audit (spec 2.8): every write to one profile, with values before and after. */
export const profileAuditRoute: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  app.get(
    '/profiles/:id/audit',
    {
      config: { access: { entity: 'Profiles', verb: 'ViewAudit' } },
      schema: { tags: ['profiles'], summary: "A profile's audit trail", params: z.object({ id: Id }), querystring: AuditListQuery, response: { 200: listOf(AuditEntry), 400: ErrorBody, 404: ErrorBody } },
    },
    async (request) => {
      const { profile } = await findVisibleProfile(db, request.user, request.params.id);
      return listAudit(db, request.query, and(eq(auditLog.entity, 'Profile'), eq(auditLog.entityId, profile.id))!, auditReader(request.user));
    },
  );
};
