import type { Db } from '../db/database';
import { recordRuleMatches } from '../hits/record-rule-matches';
import { noticeCandidateMatches } from '../network/candidate-match-notices';
import type { SearchQueueDeps } from './search-queue';

/**
 * How a search's matches become pending hits: in one transaction, never twice (server/hits/record-rule-matches.ts);
 * a hit naming a profile held for a lower instance's laboratory is sent down to it, its notice in the same transaction.
 */
export const recordSearchHits =
  (db: Db): SearchQueueDeps['record'] =>
  async (input) =>
    (
      await db.transaction(async (tx) => {
        const added = await recordRuleMatches(tx as unknown as Db, input);
        await noticeCandidateMatches(tx as unknown as Db, added);
        return added;
      })
    ).length;
