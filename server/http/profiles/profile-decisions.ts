import type { ApproveProfileBody, ProfileStatus, RejectProfileBody } from '../../../core/schemas/profiles';
import { appendAudit } from '../../audit/audit-trail';
import { deleteHitsOf, withdrawPendingHits } from '../../hits/record-hits';
import { queueUpload } from '../../network/upload-outbox';
import type { Clock } from '../../clock';
import type { Db } from '../../db/database';
import { profiles } from '../../db/schema';
import type { OrganizationEvents } from '../../events/organization-events';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { updateVersioned } from '../../db/versioned';
import type { RouteDeps } from '../route-deps';
import { auditActor } from '../audit-actor';
import { Conflict } from '../errors';
import { assertNotOwnProfile } from '../four-eyes';
import { assertNotHeld } from './held-profile';
import { checkProfileMarkerValues, writeMarkerValues } from './marker-values';
import { findVisibleProfile, type ProfileRow } from './profile-query';
import { profileAuditTarget, profileSnapshot } from './profile-snapshot';

/** The states each decision leaves from (ARCHITECTURE.md "States"); any other is 409. */
const FROM: Record<'approve' | 'reject' | 'reset', readonly ProfileStatus[]> = {
  approve: ['pending'],
  reject: ['pending'],
  reset: ['approved', 'rejected'],
};
/** The word each decision takes in the 409 message ("only a pending profile can be rejected"). */
const DONE: Record<keyof typeof FROM, string> = { approve: 'approved', reject: 'rejected', reset: 'reset' };

export function assertTransition(profile: ProfileRow, action: keyof typeof FROM): void {
  if (!FROM[action].includes(profile.status as ProfileStatus)) {
    throw new Conflict(`Profile ${profile.profileId} is ${profile.status}; only a ${FROM[action].join(' or ')} profile can be ${DONE[action]}.`);
  }
}

/** Moves a profile to `status` at `version`, records who decided and why, and audits it with the state before and after. */
export async function decide(
  db: Db,
  clock: Clock,
  user: AuthenticatedUser,
  current: ProfileRow,
  change: { status: ProfileStatus; version: number; comments: string; action: string; markerValues?: Parameters<typeof writeMarkerValues>[2]; hits?: 'withdraw' | 'delete' },
  events?: Pick<OrganizationEvents, 'publish'>,
) {
  await assertNotHeld(db, current);
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
    // An approval or a reset travels to the upper instance: its outbox entry commits with the decision.
    if (change.status === 'approved' || current.status === 'approved') await queueUpload(t, clock, current.id, change.status === 'approved' ? 'upload' : 'reset');
    const after = await profileSnapshot(t, current.id);
    await appendAudit(t, auditActor(user), clock, { ...profileAuditTarget(after), action: change.action, before, after });
    return after;
  });
  // Committed: the open profile lists and review counts read again, and the hit lists (whose profiles are the organization's own) when hits went.
  events?.publish(current.organizationId, 'profiles');
  if (hitsRemoved > 0) events?.publish(current.organizationId, 'hits');
  return decided;
}

/** What a decision on one profile needs: the database, the clock, the matcher that searches an approved profile, and the open pages to tell. */
export type ProfileDecisionDeps = Pick<RouteDeps, 'db' | 'clock' | 'search' | 'events'>;

/**
 * Approves a pending profile the user may see with the marker values given (spec 4), unless they entered it
 * (four-eyes review, 403); then it joins the index and is searched in the background. The single approval and
 * the bulk one (with the stored values) both come here.
 */
export async function approveProfile({ db, clock, search, events }: ProfileDecisionDeps, user: AuthenticatedUser, id: string, body: ApproveProfileBody) {
  const { profile: current } = await findVisibleProfile(db, user, id);
  assertTransition(current, 'approve');
  await assertNotOwnProfile(db, user, current);
  const values = await checkProfileMarkerValues(db, current, body.markerValues);
  if (values.length === 0) throw new Conflict(`Profile ${current.profileId} has no marker values to approve.`);
  const approved = await decide(db, clock, user, current, { status: 'approved', version: body.version, comments: body.comments, action: 'Approved', markerValues: values }, events);
  await search?.decided({ ...current, status: 'approved' });
  return approved;
}

/** Rejects a pending profile the user may see, with a reason; the single rejection and the bulk one both come here. */
export async function rejectProfile({ db, clock, events }: ProfileDecisionDeps, user: AuthenticatedUser, id: string, body: RejectProfileBody) {
  const { profile: current } = await findVisibleProfile(db, user, id);
  assertTransition(current, 'reject');
  return decide(db, clock, user, current, { status: 'rejected', version: body.version, comments: body.reason, action: 'Rejected' }, events);
}
