import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { ApproveProfileBody, ProfileWithMarkers, RejectProfileBody, ResetProfileBody } from '../../../core/schemas/profiles';
import type { RouteDeps } from '../route-deps';
import { approveProfile, assertTransition, decide, rejectProfile } from './profile-decisions';
import { findVisibleProfile } from './profile-query';

const tags = ['profiles'];
const ById = z.object({ id: Id });

/** Profile review (spec 4 "Profiles"): approve with marker values and comments, reject with a reason, reset, reset-and-delete. */
export const profileReviewRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, deps) => {
  const { db, clock, search, events } = deps;
  /** After the decision committed: an approved profile joins the in-memory index and is searched in the background; a reset one leaves it. */
  const afterDecision = async (profile: { id: string; profileId: string; organizationId: string; status: string }) => search?.decided(profile);

  app.post(
    '/profiles/:id/approve',
    {
      config: { access: { entity: 'Profiles', verb: 'Edit' } },
      schema: { tags, summary: 'Approve a pending profile with the marker values the reviewer confirms', params: ById, body: ApproveProfileBody, response: { 200: ProfileWithMarkers, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody } },
    },
    async (request) => approveProfile(deps, request.user, request.params.id, request.body),
  );

  app.post(
    '/profiles/:id/reject',
    {
      config: { access: { entity: 'Profiles', verb: 'Edit' } },
      schema: { tags, summary: 'Reject a pending profile, with a reason', params: ById, body: RejectProfileBody, response: { 200: ProfileWithMarkers, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody } },
    },
    async (request) => rejectProfile(deps, request.user, request.params.id, request.body),
  );

  app.post(
    '/profiles/:id/reset',
    {
      config: { access: { entity: 'Profiles', verb: 'Reset' } },
      schema: { tags, summary: 'Return an approved or rejected profile to pending', params: ById, body: ResetProfileBody, response: { 200: ProfileWithMarkers, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody } },
    },
    async (request) => {
      const { profile: current } = await findVisibleProfile(db, request.user, request.params.id);
      assertTransition(current, 'reset');
      const reset = await decide(db, clock, request.user, current, { status: 'pending', version: request.body.version, comments: request.body.comments, action: 'Reset', hits: 'withdraw' }, events);
      await afterDecision({ ...current, status: 'pending' });
      return reset;
    },
  );

  app.post(
    '/profiles/:id/reset-delete',
    {
      config: { access: { entity: 'Profiles', verb: 'Reset' } },
      schema: { tags, summary: 'Return an approved or rejected profile to pending and delete every hit that names it', params: ById, response: { 200: ProfileWithMarkers, 404: ErrorBody, 409: ErrorBody } },
    },
    async (request) => {
      const { profile: current } = await findVisibleProfile(db, request.user, request.params.id);
      assertTransition(current, 'reset');
      // Spec 7.1: no payload; the status check above is the guard against a stale screen.
      const reset = await decide(db, clock, request.user, current, { status: 'pending', version: current.version, comments: '', action: 'Reset and hits deleted', hits: 'delete' }, events);
      await afterDecision({ ...current, status: 'pending' });
      return reset;
    },
  );
};
