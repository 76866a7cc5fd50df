import { CASE_CLOSED_MESSAGE } from '../../../core/schemas/cases';
import type { Db } from '../../db/database';
import { heldForLowerInstance, holdingInstance } from '../../network/held-organizations';
import { Conflict } from '../errors';

/**
 * Refuses (409) a change to a profile held for a lower instance (issue 32): the lower instance owns it and sends its
 * corrections, resets and deletions; here it is read-only, like its laboratory.
 */
export async function assertNotHeld(db: Db, profile: { profileId: string; organizationId: string }): Promise<void> {
  const held = await heldForLowerInstance(db, profile.organizationId);
  if (held) throw new Conflict(`Profile ${profile.profileId} cannot be changed: ${held}`);
}

/**
 * Refuses (409) adding profiles to a case that cannot take them: a closed case, or one of a laboratory held for a lower
 * instance (issue 32), whose profiles arrive only in that instance's batches.
 */
export async function assertCaseTakesProfiles(db: Db, found: { caseNumber: string; organizationId: string; status: string }): Promise<void> {
  if (found.status === 'Closed') throw new Conflict(CASE_CLOSED_MESSAGE);
  const instance = await holdingInstance(db, found.organizationId);
  if (instance !== null) throw new Conflict(`Case ${found.caseNumber} takes no new profiles here: its laboratory is held for the lower instance "${instance}", whose batches alone bring its profiles; add the profile there`);
}
