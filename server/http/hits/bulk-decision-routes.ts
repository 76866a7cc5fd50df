import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BulkHitDecisionBody, BulkReviewResult } from '../../../core/schemas/bulk-review';
import { ErrorBody } from '../../../core/schemas/common';
import type { HitDecision } from '../../hits/decide-hit';
import type { OutboxSender } from '../../mail/outbox-sender';
import { decideEach } from '../bulk-review';
import type { RouteDeps } from '../route-deps';
import { announceHitDecisions, decideVisibleHit, type DecidedHit } from './hit-decision';

/**
 * Publish or reject several pending hits at once (issue 18). Each goes through the single call's code: its
 * organization, status, version (409), four-eyes review (403), its own transaction, history and audit row, and
 * on a publication with notify its e-mails; the open hit lists hear once of the whole batch.
 */
export const hitBulkDecisionRoutes = (sender: OutboxSender): FastifyPluginAsyncZod<RouteDeps> => async (app, deps) => {
  app.post(
    '/hits/bulk-decision',
    {
      config: { access: { entity: 'Hits', verb: 'Publish' } },
      schema: {
        tags: ['hits'],
        summary: 'Publish (optionally notifying the cases’ assigned users) or reject (with a reason) up to 200 pending hits; the answer gives each one’s outcome',
        body: BulkHitDecisionBody,
        response: { 200: BulkReviewResult, 400: ErrorBody },
      },
    },
    async (request) => {
      const { user, body } = request;
      const decided: DecidedHit[] = [];
      const decisionOf = (version: number): HitDecision =>
        body.action === 'publish' ? { action: 'publish', version, comments: body.comments, notify: body.notify } : { action: 'reject', version, comments: body.reason };
      const result = await decideEach(
        body.items,
        async (item) => decided.push(await decideVisibleHit(deps, user, item.id, decisionOf(item.version))),
        body.action === 'publish' ? 'Published' : 'Rejected',
        request.log,
      );
      announceHitDecisions(decided, deps.events, sender, app.log);
      return result;
    },
  );
};
