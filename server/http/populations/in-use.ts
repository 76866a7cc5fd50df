import type { Db } from '../../db/database';
import { hits } from '../../db/schema';
import { hitsUsing } from '../../hits/hits-using';

/**
 * Names what still uses a population, so deleting it is refused (409) with that message; null when
 * nothing does. Hits name the population they were computed against.
 */
export async function populationInUse(db: Db, id: string): Promise<string | null> {
  return hitsUsing(db, hits.populationId, id);
}
