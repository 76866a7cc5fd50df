import type { Db } from '../../db/database';
import { heldForLowerInstance } from '../../network/held-organizations';
import { Conflict } from '../errors';

/**
 * Refuses (409) a change to a profile held for a lower instance (issue 32): the lower instance owns it and sends its
 * corrections, resets and deletions; here it is read-only, like its laboratory.
 */
export async function assertNotHeld(db: Db, profile: { profileId: string; organizationId: string }): Promise<void> {
  const held = await heldForLowerInstance(db, profile.organizationId);
  if (held) throw new Conflict(`Profile ${profile.profileId} cannot be changed: ${held}`);
}
