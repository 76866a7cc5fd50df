import type { Clock } from '../clock';
import type { Database } from '../db/database';
import { throttled, type OrganizationEvents } from '../events/organization-events';
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
  /** Where open pages hear of searches moving on and of the hits they record. */
  events?: Pick<OrganizationEvents, 'publish'>;
  /** Where a failed search or a lost link to the other processes is reported (the server's log). */
  onError(err: unknown, message: string, details?: object): void;
}

/** Shortest time between two `searches` events of one organization. */
export const SEARCH_EVENT_INTERVAL_MS = 500;

/** Builds the in-memory index from every approved profile, listens for other processes' decisions, and starts the queue with the searches a stop cut off (server start-up). */
export async function startSearchRuntime({ database, clock, record, events, onError }: SearchRuntimeDeps): Promise<SearchRuntime> {
  const { db } = database;
  const service = new MatchingService(new IndexSet());
  const sync = new IndexSync({ database, service, onError });
  await sync.listenAndRebuild();
  // Progress moves many times a second: pages hear of it at most twice a second, and of the last state always.
  const searchesChanged = events ? throttled(events, SEARCH_EVENT_INTERVAL_MS) : undefined;
  const recordAndTell: SearchQueueDeps['record'] = async (input) => {
    const added = await record(input);
    if (added > 0) events?.publish(input.organizationId, 'hits');
    return added;
  };
  const queue = new SearchQueue({
    db,
    clock,
    matching: service,
    record: recordAndTell,
    onFailure: (job, err) => onError(err, 'database search failed', { job }),
    onChange: (job) => searchesChanged?.publish(job.organizationId, 'searches'),
  });
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
      searchesChanged?.close();
      await sync.close();
    },
  };
}
