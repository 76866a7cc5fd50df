import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../../server/clock';
import { turnKind, type TurnKind } from '../../../../server/db/turn-kind';
import { IndexSet } from '../../../../server/matching/index-set';
import { MatchingService } from '../../../../server/matching/matching-service';
import { SearchQueue } from '../../../../server/search/search-queue';
import { freshPglite } from '../../../helpers/database';

// Issue 29: on PGlite's one connection, an approval's search used to take the turns of the request that approved it,
// so /api/health waited behind a whole transaction of hit writes (155.9 ms during forensic mixtures' approvals).
describe('the search queue on PGlite’s one connection', () => {
  it('runs its searches as background work, whoever approved the profile', async () => {
    const database = await freshPglite();
    try {
      const seen: TurnKind[] = [];
      const queue = new SearchQueue({
        db: database.db,
        clock: systemClock,
        matching: new MatchingService(new IndexSet()),
        record: async () => 0,
        // The loop's first await: what it and every statement after it run as.
        waitForIndex: async () => void seen.push(turnKind()),
      });
      // Enqueued from a request's turn, as the approval route does.
      expect(turnKind()).toBe('request');
      queue.enqueue({ id: randomUUID(), profileId: 'P-1', organizationId: randomUUID() });
      await queue.idle();
      expect(seen).toEqual(['background']);
    } finally {
      await database.close();
    }
  });
});
