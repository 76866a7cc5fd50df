import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BulkProfileReviewBody, BulkReviewResult } from '../../../core/schemas/bulk-review';
import { ErrorBody } from '../../../core/schemas/common';
import { decideEach } from '../bulk-review';
import type { RouteDeps } from '../route-deps';
import { readMarkerValues } from './marker-values';
import { approveProfile, rejectProfile } from './profile-decisions';

/**
 * Approve or reject several pending profiles at once (issue 18). Each goes through the single call's code:
 * its organization, status, version (409), four-eyes review (403), its own transaction and audit row, and
 * an approved one's search. An approval keeps the profile's stored marker values as they are.
 */
export const profileBulkReviewRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, deps) => {
  app.post(
    '/profiles/bulk-review',
    {
      config: { access: { entity: 'Profiles', verb: 'Edit' } },
      schema: {
        tags: ['profiles'],
        summary: 'Approve (with their stored marker values) or reject (with a reason) up to 200 pending profiles; the answer gives each one’s outcome',
        body: BulkProfileReviewBody,
        response: { 200: BulkReviewResult, 400: ErrorBody },
      },
    },
    async (request) => {
      const { user, body } = request;
      if (body.action === 'reject') {
        return decideEach(body.items, (item) => rejectProfile(deps, user, item.id, { version: item.version, reason: body.reason }), 'Rejected', request.log);
      }
      return decideEach(
        body.items,
        async (item) => {
          const stored = await readMarkerValues(deps.db, item.id);
          const markerValues = stored.map(({ markerId, alleles }) => ({ markerId, alleles }));
          return approveProfile(deps, user, item.id, { version: item.version, comments: body.comments, markerValues });
        },
        'Approved',
        request.log,
      );
    },
  );
};
