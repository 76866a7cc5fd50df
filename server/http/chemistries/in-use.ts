import type { Db } from '../../db/database';
import { profiles } from '../../db/schema';
import { profilesUsing } from '../records-using';

/** Why a chemistry cannot be deleted (profiles typed with it, spec 3 Profile.chemistry), or null when nothing uses it. */
export async function chemistryInUse(db: Db, id: string): Promise<string | null> {
  return profilesUsing(db, profiles.chemistryId, id);
}
