import type { Db } from '../db/database';
import { recordRuleMatches } from '../hits/record-rule-matches';
import type { SearchQueueDeps } from './search-queue';

/** How a search's matches become pending hits: in one transaction, never twice (server/hits/record-rule-matches.ts). */
export const recordSearchHits =
  (db: Db): SearchQueueDeps['record'] =>
  async (input) =>
    (await db.transaction((tx) => recordRuleMatches(tx as unknown as Db, input))).length;
