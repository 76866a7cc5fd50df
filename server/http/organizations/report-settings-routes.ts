import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { ReportSettings, ReportSettingsChange } from '../../../core/schemas/report-settings';
import { organizations } from '../../db/schema';
import { updateVersioned } from '../../db/versioned';
import { NotFound } from '../../errors';
import { auditBefore } from '../administration-audit';
import type { RouteDeps } from '../route-deps';

const tags = ['organizations'];
const ById = z.object({ id: Id });

/**
 * An organization's report settings (issue 18): the verbal scale its hit and calculator PDFs state each LR with.
 * Read by whoever reads organizations, changed by Organizations Edit with the organization's version, audited.
 */
export const reportSettingsRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  const find = async (id: string): Promise<ReportSettings> => {
    const [org] = await db.select({ verbalScale: organizations.verbalScale, version: organizations.version }).from(organizations).where(eq(organizations.id, id));
    if (!org) throw new NotFound('No such organization');
    return org as ReportSettings;
  };

  app.get(
    '/organizations/:id/report-settings',
    {
      config: { access: { entity: 'Organizations', verb: 'Read', orgParam: 'id' } },
      schema: { tags, summary: 'An organization’s report settings (the verbal scale of its reported LRs)', params: ById, response: { 200: ReportSettings, 404: ErrorBody } },
    },
    async (request) => find(request.params.id),
  );

  app.put(
    '/organizations/:id/report-settings',
    {
      config: { access: { entity: 'Organizations', verb: 'Edit', orgParam: 'id' } },
      schema: {
        tags,
        summary: 'Choose the verbal scale an organization’s reports state each LR with: enfsi-2015 (the default), swgdam-2018 or none',
        params: ById,
        body: ReportSettingsChange,
        response: { 200: ReportSettings, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => {
      auditBefore(request, await find(request.params.id));
      const row = await updateVersioned(db, organizations, request.params.id, request.body.version, { verbalScale: request.body.verbalScale }, 'organization');
      return { verbalScale: row.verbalScale, version: row.version } as ReportSettings;
    },
  );
};
