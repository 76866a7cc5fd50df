import type { Db } from '../../db/database';

/**
 * Why a chemistry cannot be deleted, or null when nothing uses it. Profiles are typed with a
 * chemistry (spec 3 Profile.chemistry): when profiles arrive (issue 4), they add their check here,
 * e.g. "profiles still use it (12)".
 */
export async function chemistryInUse(_db: Db, _id: string): Promise<string | null> {
  return null;
}
