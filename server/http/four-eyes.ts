import { and, eq } from 'drizzle-orm';
import { isOwnProfile, ownHitRefusal, ownProfileRefusal } from '../../core/four-eyes';
import type { Db } from '../db/database';
import { hitProfiles, organizations, profiles } from '../db/schema';
import { Forbidden } from '../errors';
import type { AuthenticatedUser } from '../identity/load-principal';

/** Whether the organization reviews with four eyes (organizations.fourEyesReview; on unless turned off). */
export async function fourEyesReview(db: Db, organizationId: string): Promise<boolean> {
  const [org] = await db.select({ on: organizations.fourEyesReview }).from(organizations).where(eq(organizations.id, organizationId));
  return org?.on ?? true;
}

/**
 * Four-eyes review (issue 18; ISO/IEC 17025 7.8, FBI QAS 12; the rule and its words in core/four-eyes.ts): the person
 * who entered or imported a profile may not approve it. Checked by the server whatever the browser shows.
 */
export async function assertNotOwnProfile(db: Db, user: AuthenticatedUser, profile: { organizationId: string; profileId: string; enteredBy: string | null }): Promise<void> {
  if (profile.enteredBy !== user.id || !isOwnProfile(profile.enteredBy, user.id, await fourEyesReview(db, profile.organizationId))) return;
  throw new Forbidden(ownProfileRefusal(profile.profileId));
}

/** Four-eyes review of a hit: who entered or imported one of its profiles may not publish it. */
export async function assertNoOwnProfileInHit(db: Db, user: AuthenticatedUser, hit: { id: string; organizationId: string }): Promise<void> {
  const own = await db
    .select({ profileId: profiles.profileId })
    .from(hitProfiles)
    .innerJoin(profiles, eq(profiles.id, hitProfiles.profileId))
    .where(and(eq(hitProfiles.hitId, hit.id), eq(profiles.enteredBy, user.id)));
  if (own.length === 0 || !(await fourEyesReview(db, hit.organizationId))) return;
  throw new Forbidden(ownHitRefusal(own.map((p) => p.profileId)));
}
