import type { Db } from '../../db/database';

/**
 * Names what still uses a population, so deleting it is refused (409) with that message; null when
 * nothing does. Hits name the population they were computed against: when hits arrive, they add
 * their check here (e.g. "hits still use it (3)").
 */
export async function populationInUse(_db: Db, _id: string): Promise<string | null> {
  return null;
}
