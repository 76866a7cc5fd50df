import type { Clock } from '../clock';
import type { Database } from '../db/database';
import { IndexSet } from '../matching/index-set';
import { MatchingService } from '../matching/matching-service';
import { IndexSync, refreshProfile } from './index-sync';
import { SearchQueue, type SearchQueueDeps } from './search-queue';

/** The matcher, its search queue and its link to the other processes, held by the server for its lifetime (ARCHITECTURE.md "Matching"). */
export interface SearchRuntime {
  service: MatchingService;
  queue: SearchQueue;
  sync: IndexSync;
  /**
   * After a profile decision committed: an approved profile joins the index and is searched in the
   * background, any other leaves it; the other processes hear of it.
   */
  decided(profile: { id: string; profileId: string; organizationId: string; status: string }): Promise<void>;
  /** Waits for the queued searches, then stops listening (server shutdown). */
  close(): Promise<void>;
}

export interface SearchRuntimeDeps {
  database: Database;
  clock: Clock;
  record: SearchQueueDeps['record'];
  /** Where a failed search or a lost link to the other processes is reported (the server's log). */
  onError(err: unknown, message: string, details?: object): void;
}

/** Builds the in-memory index from every approved profile, listens for other processes' decisions, and starts the queue with the searches a stop cut off (server start-up). */
export async function startSearchRuntime({ database, clock, record, onError }: SearchRuntimeDeps): Promise<SearchRuntime> {
  const { db } = database;
  const service = new MatchingService(new IndexSet());
  const sync = new IndexSync({ database, service, onError });
  await sync.listenAndRebuild();
  const queue = new SearchQueue({ db, clock, matching: service, record, onFailure: (job, err) => onError(err, 'database search failed', { job }) });
  await queue.resume();
  return {
    service,
    queue,
    sync,
    decided: async (profile) => {
      await refreshProfile(db, service, profile.id);
      if (service.indexes.find(profile.id)) queue.enqueue(profile);
      // The decision stands whatever happens to the announcement; the other processes rebuild on a lost link.
      await sync.announce(profile.id).catch((err: unknown) => onError(err, 'could not announce a profile decision to the other processes'));
    },
    close: async () => {
      await queue.idle();
      await sync.close();
    },
  };
}
