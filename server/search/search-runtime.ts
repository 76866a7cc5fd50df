import type { Clock } from '../clock';
import type { Database } from '../db/database';
import { HttpError } from '../errors';
import { throttled, type OrganizationEvents } from '../events/organization-events';
import { IndexSet } from '../matching/index-set';
import { searchActiveFamilies } from '../missing-persons/remains-approval';
import { MatchingService } from '../matching/matching-service';
import { IndexSync, refreshProfiles } from './index-sync';
import { SearchPool } from './search-pool';
import { SearchQueue, type SearchQueueDeps } from './search-queue';

/** Where the start-up load of the matching index stands: approved profiles read so far out of about `total`. */
export interface MatchIndexState {
  state: 'loading' | 'ready';
  loaded: number;
  total: number;
}

/** The 503 a search asked for before the index is loaded answers with. */
export class IndexLoading extends HttpError {
  constructor(readonly index: MatchIndexState) {
    const figures = index.total > 0 ? ` (${index.loaded.toLocaleString('en')} of ${index.total.toLocaleString('en')} profiles)` : '';
    super(503, `The matching index is still loading${figures}; try again in a minute.`);
  }
}

/** A profile whose decision committed, as the search queue names it. */
type Decided = { id: string; profileId: string; organizationId: string; status: string };

/** The matcher, its search queue and its link to the other processes, held by the server for its lifetime (ARCHITECTURE.md "Matching"). */
export interface SearchRuntime {
  /** The matcher; searches through it go through matcher(), which refuses them while the index loads. */
  service: MatchingService;
  /** The start-up load of the index: loading (with progress) until every approved profile is in it. */
  readonly index: MatchIndexState;
  /** Resolves when the index is loaded (rejects if the server stops first). */
  readonly ready: Promise<void>;
  /** The matcher once the index is loaded; before that an IndexLoading error (503) saying how far it is. */
  matcher(): MatchingService;
  queue: SearchQueue;
  /** The search workers every database search runs on (ARCHITECTURE.md "Using every core"). */
  pool: SearchPool;
  sync: IndexSync;
  /**
   * After a profile decision committed: an approved profile joins the index and is searched in the
   * background, any other leaves it; the other processes hear of it.
   */
  decided(profile: Decided): Promise<void>;
  /** decided for many profiles at once (a lower instance's batch): one read, one announcement statement. */
  decidedAll(profiles: readonly Decided[]): Promise<void>;
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
  /** Search threads (SEARCH_THREADS; default one per core). */
  threads?: number;
}

/** Shortest time between two `searches` events of one organization. */
export const SEARCH_EVENT_INTERVAL_MS = 500;

/** Profiles from which the search threads warm up once the index is loaded: under it, a first search is quick anyway. */
export const WARM_UP_FROM = 10_000;

/** Wait before trying the start-up load again after it failed (the database was unreachable). */
const LOAD_RETRY_MS = 2000;

/**
 * Loads the in-memory index from every approved profile in the background, listening for other
 * processes' decisions first, then queues the searches a stop cut off (server start-up). The server
 * answers meanwhile: health reports the progress, searches answer 503 (IndexLoading), and queued
 * searches wait for the index. A failed load (the database unreachable) is tried again.
 */
export async function startSearchRuntime({ database, clock, record, events, onError, threads }: SearchRuntimeDeps): Promise<SearchRuntime> {
  const { db } = database;
  const pool = new SearchPool(threads);
  const service = new MatchingService(new IndexSet());
  const sync = new IndexSync({ database, service, onError });
  const index: MatchIndexState = { state: 'loading', loaded: 0, total: 0 };
  let closed = false;
  let retry: { timer: ReturnType<typeof setTimeout>; wake: () => void } | null = null;
  let ready: Promise<void> = Promise.resolve();
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
    searchFamilies: async (profile) => {
      // The pedigree evaluations and chance distributions run on a search worker; the index is not read there.
      // The statistics the rules read, kept by the queue: not read again per family and per approval.
      const added = await searchActiveFamilies(db, service.indexes, profile, (family, remains, searched) => pool.run(new IndexSet(), undefined, { task: 'remains', family, profile: remains, searched }), queue.populations);
      // A hit is its family's: at the upper level another laboratory's than the remains'.
      for (const organizationId of new Set(added.map((h) => h.organizationId))) events?.publish(organizationId, 'hits');
      return added.length;
    },
    onFailure: (job, err) => onError(err, 'database search failed', { job }),
    onChange: (job) => searchesChanged?.publish(job.organizationId, 'searches'),
    waitForIndex: () => ready,
    pool,
  });
  const load = async () => {
    // The count the load makes for its room is the progress's denominator (approvals during the load can raise it).
    await sync.listenAndRebuild((loaded, total) => {
      index.loaded = loaded;
      index.total = total;
    });
    if (closed) throw new Error('The server stopped before the matching index was loaded');
    index.state = 'ready';
    index.total = index.loaded;
  };
  ready = (async () => {
    // Every thread started (each loads its modules: about a second of CPU) before the load's first statements, not beside them.
    await pool.start().catch((err: unknown) => onError(err, 'could not start the search threads'));
    for (;;) {
      try {
        await load();
        break;
      } catch (err) {
        if (closed) throw err;
        onError(err, 'could not load the matching index; trying again');
        index.loaded = 0;
        await new Promise<void>((wake) => (retry = { timer: setTimeout(wake, LOAD_RETRY_MS), wake }));
        retry = null;
      }
    }
    // A large index's first searches would wait for threads to start and compile: they warm up first, on the threads.
    if (service.indexes.indexes('Autosomal').reduce((n, i) => n + i.size, 0) >= WARM_UP_FROM) await pool.warm(service.indexes).catch((err: unknown) => onError(err, 'could not warm up the search threads'));
    // The searches a stop cut off run on the loaded index.
    await queue.resume().catch((err: unknown) => onError(err, 'could not queue again the searches a stop cut off'));
  })();
  // Heard by whoever waits on it; a stop before the load finished is no failure of its own.
  ready.catch(() => undefined);
  const decidedAll = async (decided: readonly Decided[]) => {
    for (const profile of decided) sync.decided(profile.id);
    await refreshProfiles(db, service, decided.map((p) => p.id));
    for (const profile of decided) if (service.indexes.has(profile.id)) queue.enqueue(profile);
    // The decision stands whatever happens to the announcement; the other processes rebuild on a lost link.
    await sync.announceAll(decided.map((p) => p.id)).catch((err: unknown) => onError(err, 'could not announce a profile decision to the other processes'));
  };
  return {
    service,
    index,
    ready,
    matcher: () => {
      if (index.state !== 'ready') throw new IndexLoading({ ...index });
      return service;
    },
    queue,
    pool,
    sync,
    decided: (profile) => decidedAll([profile]),
    decidedAll,
    close: async () => {
      closed = true;
      if (retry) {
        clearTimeout(retry.timer);
        retry.wake();
      }
      // A load under way stops at its next page; queued searches stay queued for the next start.
      if (index.state !== 'ready') await sync.close();
      await ready.catch(() => undefined);
      await queue.idle();
      searchesChanged?.close();
      await sync.close();
    },
  };
}
