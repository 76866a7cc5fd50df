import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { ApproveProfileBody, ProfileWithMarkers, RejectProfileBody, ResetProfileBody, type ProfileStatus } from '../../../core/schemas/profiles';
import { appendAudit } from '../../audit/audit-trail';
import { deleteHitsOf, withdrawPendingHits } from '../../hits/record-hits';
import type { Clock } from '../../clock';
import type { Db } from '../../db/database';
import { profiles } from '../../db/schema';
import type { OrganizationEvents } from '../../events/organization-events';
import type { RouteDeps } from '../route-deps';
import { auditActor } from '../audit-actor';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { Conflict } from '../errors';
import { assertNotOwnProfile } from '../four-eyes';
import { updateVersioned } from '../../db/versioned';
import { checkProfileMarkerValues, writeMarkerValues } from './marker-values';
import { findVisibleProfile, type ProfileRow } from './profile-query';
import { profileAuditTarget, profileSnapshot } from './profile-snapshot';

const tags = ['profiles'];
const ById = z.object({ id: Id });

/** The states each decision leaves from (ARCHITECTURE.md "States"); any other is 409. */
const FROM: Record<'approve' | 'reject' | 'reset', readonly ProfileStatus[]> = {
  approve: ['pending'],
  reject: ['pending'],
  reset: ['approved', 'rejected'],
};
/** The word each decision takes in the 409 message ("only a pending profile can be rejected"). */
const DONE: Record<keyof typeof FROM, string> = { approve: 'approved', reject: 'rejected', reset: 'reset' };

function assertTransition(profile: ProfileRow, action: keyof typeof FROM): void {
  if (!FROM[action].includes(profile.status as ProfileStatus)) {
    throw new Conflict(`Profile ${profile.profileId} is ${profile.status}; only a ${FROM[action].join(' or ')} profile can be ${DONE[action]}.`);
  }
}

/** Moves a profile to `status` at `version`, records who decided and why, and audits it with the state before and after. */
async function decide(
  db: Db,
  clock: Clock,
  user: AuthenticatedUser,
  current: ProfileRow,
  change: { status: ProfileStatus; version: number; comments: string; action: string; markerValues?: Parameters<typeof writeMarkerValues>[2]; hits?: 'withdraw' | 'delete' },
  events?: Pick<OrganizationEvents, 'publish'>,
) {
  let hitsRemoved = 0;
  const decided = await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const before = await profileSnapshot(t, current.id);
    const reviewed = change.status === 'pending' ? { reviewedBy: null, reviewedAt: null } : { reviewedBy: user.id, reviewedAt: clock.now() };
    // Every decision leaves the profile unsearched: an approval's search marks it when it finishes.
    await updateVersioned(t, profiles, current.id, change.version, { status: change.status, reviewComments: change.comments, ...reviewed, searchedAt: null }, 'profile');
    if (change.markerValues) await writeMarkerValues(t, current.id, change.markerValues);
    // The search of an approved profile starts after this commits (afterDecision).
    // Reset: the profile leaves the database, its pending hits are withdrawn; reset-delete: every hit naming it goes.
    if (change.hits) hitsRemoved = (await (change.hits === 'withdraw' ? withdrawPendingHits : deleteHitsOf)(t, current.id, { actor: auditActor(user), clock })).length;
    const after = await profileSnapshot(t, current.id);
    await appendAudit(t, auditActor(user), clock, { ...profileAuditTarget(after), action: change.action, before, after });
    return after;
  });
  // Committed: the open hit lists of the organization (whose profiles alone its hits name) read again.
  if (hitsRemoved > 0) events?.publish(current.organizationId, 'hits');
  return decided;
}

/** Profile review (spec 4 "Profiles"): approve with marker values and comments, reject with a reason, reset, reset-and-delete. */
export const profileReviewRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db, clock, search, events }) => {
  /** After the decision committed: an approved profile joins the in-memory index and is searched in the background; a reset one leaves it. */
  const afterDecision = async (profile: { id: string; profileId: string; organizationId: string; status: string }) => search?.decided(profile);

  app.post(
    '/profiles/:id/approve',
    {
      config: { access: { entity: 'Profiles', verb: 'Edit' } },
      schema: { tags, summary: 'Approve a pending profile with the marker values the reviewer confirms', params: ById, body: ApproveProfileBody, response: { 200: ProfileWithMarkers, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody } },
    },
    async (request) => {
      const { profile: current } = await findVisibleProfile(db, request.user, request.params.id);
      assertTransition(current, 'approve');
      await assertNotOwnProfile(db, request.user, current);
      const { markerValues, comments, version } = request.body;
      const values = await checkProfileMarkerValues(db, current, markerValues);
      if (values.length === 0) throw new Conflict(`Profile ${current.profileId} has no marker values to approve.`);
      const approved = await decide(db, clock, request.user, current, { status: 'approved', version, comments, action: 'Approved', markerValues: values });
      await afterDecision({ ...current, status: 'approved' });
      return approved;
    },
  );

  app.post(
    '/profiles/:id/reject',
    {
      config: { access: { entity: 'Profiles', verb: 'Edit' } },
      schema: { tags, summary: 'Reject a pending profile, with a reason', params: ById, body: RejectProfileBody, response: { 200: ProfileWithMarkers, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody } },
    },
    async (request) => {
      const { profile: current } = await findVisibleProfile(db, request.user, request.params.id);
      assertTransition(current, 'reject');
      return decide(db, clock, request.user, current, { status: 'rejected', version: request.body.version, comments: request.body.reason, action: 'Rejected' });
    },
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
