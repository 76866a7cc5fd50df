import type { Clock } from '../clock';
import type { Db } from '../db/database';
import { loadMatchIndexes } from '../matching/load-indexes';
import { MatchingService } from '../matching/matching-service';
import { SearchQueue, type SearchQueueDeps } from './search-queue';

/** The matcher and its search queue, held by the server for its lifetime (ARCHITECTURE.md "Matching"). */
export interface SearchRuntime {
  service: MatchingService;
  queue: SearchQueue;
}

/** Builds the in-memory index from every approved profile and starts the queue, with the searches a stop cut off (server start-up). */
export async function startSearchRuntime(
  db: Db,
  clock: Clock,
  record: SearchQueueDeps['record'],
  onFailure?: SearchQueueDeps['onFailure'],
): Promise<SearchRuntime> {
  const service = new MatchingService(await loadMatchIndexes(db));
  const queue = new SearchQueue({ db, clock, matching: service, record, ...(onFailure ? { onFailure } : {}) });
  await queue.resume();
  return { service, queue };
}
