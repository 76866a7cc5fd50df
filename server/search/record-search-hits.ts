import type { Db } from '../db/database';
import { recordHitCandidates } from '../hits/record-hits';
import type { SearchQueueDeps } from './search-queue';

/** How a search's candidates become pending hits: in one transaction, never twice (server/hits/record-hits.ts). */
export const recordSearchHits =
  (db: Db): SearchQueueDeps['record'] =>
  async (organizationId, candidates) =>
    (await db.transaction((tx) => recordHitCandidates(tx as unknown as Db, { organizationId, candidates }))).length;
