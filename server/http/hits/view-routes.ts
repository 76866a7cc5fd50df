import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { HitView, PublishHitBody, RejectHitBody, ResetHitBody, WeighHitAgainBody } from '../../../core/schemas/hits';
import type { HitDecision } from '../../hits/decide-hit';
import { weighHitAgain, type WeighStringency } from '../../hits/weigh-again';
import { IndexSet } from '../../matching/index-set';
import { toWireRule } from '../../search/search-wire';
import { auditActor } from '../audit-actor';
import type { OutboxSender } from '../../mail/outbox-sender';
import type { AuthenticatedUser } from '../../identity/load-principal';
import type { RouteDeps } from '../route-deps';
import { announceHitDecisions, decideVisibleHit } from './hit-decision';
import { buildHitView } from './hit-view';
import { findVisibleHit } from './hit-query';

const tags = ['hits'];
const ById = z.object({ id: Id });
const decisionResponse = { 200: HitView, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/** HitView, the workflow's three calls and weighing a hit again (spec 2.4, 7.1 `hits/{id}/publish|reject|reset`), each answering the new HitView. */
export const hitViewRoutes = (sender: OutboxSender): FastifyPluginAsyncZod<RouteDeps> => async (app, { db, clock, config, events, search }) => {
  async function decide(user: AuthenticatedUser, id: string, decision: HitDecision) {
    announceHitDecisions([await decideVisibleHit({ db, clock, config }, user, id, decision)], events, sender, app.log);
    return buildHitView(db, clock, user, id);
  }

  app.get(
    '/hits/:id',
    {
      config: { access: { entity: 'Hits', verb: 'Read' } },
      schema: { tags, summary: 'One hit: per marker the profiles side by side with pattern, formula and value; the analysis, population and history', params: ById, response: { 200: HitView, 404: ErrorBody } },
    },
    async (request) => buildHitView(db, clock, request.user, request.params.id),
  );

  app.post(
    '/hits/:id/publish',
    {
      config: { access: { entity: 'Hits', verb: 'Publish' } },
      schema: { tags, summary: 'Publish a pending hit with comments; notify e-mails the case’s assigned users', params: ById, body: PublishHitBody, response: decisionResponse },
    },
    async (request) => decide(request.user, request.params.id, { action: 'publish', version: request.body.version, comments: request.body.comments, notify: request.body.notify }),
  );

  app.post(
    '/hits/:id/reject',
    {
      config: { access: { entity: 'Hits', verb: 'Publish' } },
      schema: { tags, summary: 'Reject a pending hit, with a reason', params: ById, body: RejectHitBody, response: decisionResponse },
    },
    async (request) => decide(request.user, request.params.id, { action: 'reject', version: request.body.version, comments: request.body.reason }),
  );

  app.post(
    '/hits/:id/reset',
    {
      config: { access: { entity: 'Hits', verb: 'Reset' } },
      schema: { tags, summary: 'Return a published or rejected hit to pending', params: ById, body: ResetHitBody, response: decisionResponse },
    },
    async (request) => decide(request.user, request.params.id, { action: 'reset', version: request.body.version, comments: request.body.comments }),
  );

  app.post(
    '/hits/:id/weigh-again',
    {
      config: { access: { entity: 'Hits', verb: 'Publish' } },
      schema: {
        tags,
        summary: 'Weigh a pending identity hit again with the populations its search rule uses now; the old figures stay in its history',
        params: ById,
        body: WeighHitAgainBody,
        response: decisionResponse,
      },
    },
    async (request) => {
      const hit = await findVisibleHit(db, request.user, request.params.id);
      // The pair's LRs and chance distributions are computed on a search worker, not this thread.
      const pool = search?.pool;
      const weigh: WeighStringency | undefined = pool
        ? (rule, profile, found, genotypes, searched) => pool.run(new IndexSet(), undefined, { task: 'stringency-weigh', rule: toWireRule(rule), profile, found: [...found], genotypes: new Map(genotypes), searched })
        : undefined;
      await weighHitAgain(db, clock, auditActor(request.user), hit, request.body.version, weigh);
      events?.publish(hit.organizationId, 'hits');
      return buildHitView(db, clock, request.user, hit.id);
    },
  );
};
