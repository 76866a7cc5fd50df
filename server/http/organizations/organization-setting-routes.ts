import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { organizations } from '../../db/schema';
import { updateVersioned } from '../../db/versioned';
import { NotFound } from '../../errors';
import { auditBefore } from '../administration-audit';
import type { RouteDeps } from '../route-deps';

const tags = ['organizations'];
const ById = z.object({ id: Id });

/** The organization columns a laboratory sets on its own (issue 18): four-eyes review, the verbal scale of its reports. */
type SettingKey = 'fourEyesReview' | 'verbalScale';

/**
 * GET and PUT `organizations/{id}/{path}` for one setting of an organization: read by whoever reads organizations,
 * changed by Organizations Edit with the organization's version (stale → 409), audited with the value before.
 */
export function organizationSettingRoutes(setting: {
  path: string;
  key: SettingKey;
  /** The setting and the organization's version, as read; a change is the same with the version read. */
  read: z.ZodType;
  change: z.ZodType;
  /** What GET answers, and what PUT does, as the API document says it. */
  summary: { get: string; put: string };
}): FastifyPluginAsyncZod<RouteDeps> {
  const url = `/organizations/:id/${setting.path}`;
  return async (app, { db }) => {
    const find = async (id: string) => {
      const [org] = await db.select({ [setting.key]: organizations[setting.key], version: organizations.version }).from(organizations).where(eq(organizations.id, id));
      if (!org) throw new NotFound('No such organization');
      // The response schema (setting.read) checks and writes it; a schema chosen per setting leaves TypeScript no type here.
      return org as never;
    };

    app.get(
      url,
      {
        config: { access: { entity: 'Organizations', verb: 'Read', orgParam: 'id' } },
        schema: { tags, summary: setting.summary.get, params: ById, response: { 200: setting.read, 404: ErrorBody } },
      },
      async (request) => find(request.params.id),
    );

    app.put(
      url,
      {
        config: { access: { entity: 'Organizations', verb: 'Edit', orgParam: 'id' } },
        schema: { tags, summary: setting.summary.put, params: ById, body: setting.change, response: { 200: setting.read, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody } },
      },
      async (request) => {
        auditBefore(request, await find(request.params.id));
        const body = request.body as { version: number } & Record<SettingKey, never>;
        await updateVersioned(db, organizations, request.params.id, body.version, { [setting.key]: body[setting.key] }, 'organization');
        return find(request.params.id);
      },
    );
  };
}
