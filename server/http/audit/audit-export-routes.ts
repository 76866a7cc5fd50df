import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, gte, lt, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { ALL_ORGANIZATIONS } from '../../../core/permissions';
import { periodBounds } from '../../../core/audit/audit-period';
import { AuditEntry, AuditExportQuery, AuditPeriodExportQuery, AuditPeriodListQuery } from '../../../core/schemas/audit';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { listOf } from '../../../core/schemas/list';
import { recordTypeLabel } from '../../../core/audit/audit-labels';
import { appendAudit } from '../../audit/audit-trail';
import { exportAuditTrail } from '../../audit/audit-export';
import type { Clock } from '../../clock';
import type { Db } from '../../db/database';
import { auditLog, organizations } from '../../db/schema';
import { auditTrailCsv } from '../../reports/audit-trail-csv';
import { auditTrailDocument } from '../../reports/audit-trail-pdf';
import { renderPdf } from '../../reports/pdf';
import { auditActor } from '../audit-actor';
import { listAudit } from '../audit-list';
import { findVisibleCase } from '../cases/case-access';
import { fileResponse, sendAttachment } from '../content-disposition';
import { findVisibleProfile } from '../profiles/profile-query';
import type { RouteDeps } from '../route-deps';
import { auditReader } from '../audit-reader';

const OrgId = z.union([Id, z.literal(ALL_ORGANIZATIONS)]);
const downloadResponses = { 200: fileResponse('text/csv'), 400: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/** What an export covers: the rows, its title, its file name, and where its own audit row belongs. */
interface ExportTarget {
  scope: SQL;
  title: string;
  fileName: string;
  audit: { entityId: string; caseId: string | null; organizationId: string | null; after: Record<string, unknown> };
}

/**
 * Builds, audits and sends one export. The export is itself audited (who took which trail, how many rows,
 * the chain's verdict), after the rows are read, so the file never holds its own row.
 */
async function sendExport(db: Db, clock: Clock, request: FastifyRequest, reply: FastifyReply, query: AuditExportQuery, target: ExportTarget) {
  const actor = auditActor(request.user);
  const trail = await exportAuditTrail(db, target.scope, { title: target.title, format: query.format, exportedBy: actor.name, at: clock.now(), timeZone: query.timeZone, reader: auditReader(request.user) });
  const body = query.format === 'csv' ? auditTrailCsv(trail) : await renderPdf(auditTrailDocument(trail));
  await db.transaction(async (t) => {
    await appendAudit(t, actor, clock, {
      entity: 'AuditExport',
      entityId: target.audit.entityId,
      action: `Exported (${query.format.toUpperCase()})`,
      caseId: target.audit.caseId,
      organizationId: target.audit.organizationId,
      after: { ...target.audit.after, format: query.format.toUpperCase(), timeZone: query.timeZone, rows: trail.rows.length, verification: trail.verification.text },
    });
  });
  const file = `${target.fileName}.${query.format}`.replace(/[^\w.#-]+/g, '_');
  return sendAttachment(reply, file, query.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/pdf', body);
}

/** The rows of a period in an organization (or every organization's and administration's, at `all`), optionally of one record type. */
function periodScope(orgId: string, period: { from: string; to: string; entity?: string | undefined; timeZone: string }): SQL {
  const { from, until } = periodBounds(period, period.timeZone);
  return and(
    gte(auditLog.at, from),
    lt(auditLog.at, until),
    orgId === ALL_ORGANIZATIONS ? undefined : eq(auditLog.organizationId, orgId),
    period.entity ? eq(auditLog.entity, period.entity) : undefined,
  )!;
}

async function organizationLabel(db: Db, orgId: string): Promise<string> {
  if (orgId === ALL_ORGANIZATIONS) return 'every organization';
  const [org] = await db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, orgId));
  return org?.name ?? orgId;
}

/**
 * The audit trail's exports (issue 18): a case's, a profile's (whoever may view their audit, in reach of
 * the organization), and a period's (Organizations ViewAudit there: administrators, or roles given it),
 * as CSV or PDF with the hash chain's verdict; and the period's trail as a list for the administration screen.
 */
export const auditExportRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db, clock }) => {
  app.get(
    '/cases/:caseId/audit/export',
    {
      config: { access: { entity: 'Cases', verb: 'ViewAudit' } },
      schema: { tags: ['cases'], summary: "Export a case's audit trail as CSV or PDF, with the hash chain verified", params: z.object({ caseId: Id }), querystring: AuditExportQuery, response: downloadResponses },
    },
    async (request, reply) => {
      const found = await findVisibleCase(db, request.user, request.params.caseId);
      return sendExport(db, clock, request, reply, request.query, {
        scope: eq(auditLog.caseId, found.id),
        title: `Audit trail of case ${found.caseNumber}`,
        fileName: `Audit trail case ${found.caseNumber}`,
        audit: { entityId: found.id, caseId: found.id, organizationId: found.organizationId, after: { trail: `Case ${found.caseNumber}` } },
      });
    },
  );

  app.get(
    '/profiles/:id/audit/export',
    {
      config: { access: { entity: 'Profiles', verb: 'ViewAudit' } },
      schema: { tags: ['profiles'], summary: "Export a profile's audit trail as CSV or PDF, with the hash chain verified", params: z.object({ id: Id }), querystring: AuditExportQuery, response: downloadResponses },
    },
    async (request, reply) => {
      const { profile } = await findVisibleProfile(db, request.user, request.params.id);
      return sendExport(db, clock, request, reply, request.query, {
        scope: and(eq(auditLog.entity, 'Profile'), eq(auditLog.entityId, profile.id))!,
        title: `Audit trail of profile ${profile.profileId}`,
        fileName: `Audit trail profile ${profile.profileId}`,
        audit: { entityId: profile.id, caseId: profile.caseId, organizationId: profile.organizationId, after: { trail: `Profile ${profile.profileId}` } },
      });
    },
  );

  app.get(
    '/organizations/:orgId/audit',
    {
      config: { access: { entity: 'Organizations', verb: 'ViewAudit', orgParam: 'orgId' } },
      schema: {
        tags: ['organizations'],
        summary: "An organization's audit trail over a period (all: every organization's and administration's), optionally of one record type",
        params: z.object({ orgId: OrgId }),
        querystring: AuditPeriodListQuery,
        response: { 200: listOf(AuditEntry), 400: ErrorBody, 403: ErrorBody },
      },
    },
    async (request) => listAudit(db, request.query, periodScope(request.params.orgId, request.query), auditReader(request.user)),
  );

  app.get(
    '/organizations/:orgId/audit/export',
    {
      config: { access: { entity: 'Organizations', verb: 'ViewAudit', orgParam: 'orgId' } },
      schema: {
        tags: ['organizations'],
        summary: "Export an organization's audit trail over a period as CSV or PDF, with the hash chain verified",
        params: z.object({ orgId: OrgId }),
        querystring: AuditPeriodExportQuery,
        response: downloadResponses,
      },
    },
    async (request, reply) => {
      const { orgId } = request.params;
      const { from, to, entity, timeZone } = request.query;
      const what = entity ? `${recordTypeLabel(entity)} records of ` : '';
      const title = `Audit trail of ${what}${await organizationLabel(db, orgId)}, ${from} to ${to} (${timeZone})`;
      return sendExport(db, clock, request, reply, request.query, {
        scope: periodScope(orgId, request.query),
        title,
        fileName: `Audit trail ${from} to ${to}`,
        audit: { entityId: orgId, caseId: null, organizationId: orgId === ALL_ORGANIZATIONS ? null : orgId, after: { trail: title, from, to, ...(entity ? { entity: recordTypeLabel(entity) } : {}) } },
      });
    },
  );
};
