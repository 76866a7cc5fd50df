import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { ReviewSettings, ReviewSettingsInput } from '../../../core/schemas/review-settings';
import { organizations } from '../../db/schema';
import { updateVersioned } from '../../db/versioned';
import { NotFound } from '../../errors';
import { auditBefore } from '../administration-audit';
import type { RouteDeps } from '../route-deps';

const tags = ['organizations'];
const ById = z.object({ id: Id });

/** An organization's review settings (issue 18): read by whoever reads organizations, changed by Organizations Edit with the version read, audited. */
export const reviewSettingsRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  const find = async (id: string) => {
    const [org] = await db.select({ fourEyesReview: organizations.fourEyesReview, version: organizations.version }).from(organizations).where(eq(organizations.id, id));
    if (!org) throw new NotFound('No such organization');
    return org;
  };

  app.get(
    '/organizations/:id/review-settings',
    {
      config: { access: { entity: 'Organizations', verb: 'Read', orgParam: 'id' } },
      schema: { tags, summary: 'An organization’s review settings (four-eyes review)', params: ById, response: { 200: ReviewSettings, 404: ErrorBody } },
    },
    async (request) => find(request.params.id),
  );

  app.put(
    '/organizations/:id/review-settings',
    {
      config: { access: { entity: 'Organizations', verb: 'Edit', orgParam: 'id' } },
      schema: {
        tags,
        summary: 'Turn four-eyes review on or off for an organization (on by default)',
        params: ById,
        body: ReviewSettingsInput,
        response: { 200: ReviewSettings, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => {
      auditBefore(request, await find(request.params.id));
      await updateVersioned(db, organizations, request.params.id, request.body.version, { fourEyesReview: request.body.fourEyesReview }, 'organization');
      return find(request.params.id);
    },
  );
};
