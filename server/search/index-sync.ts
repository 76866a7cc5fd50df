import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { Database, Db } from '../db/database';
import { profiles } from '../db/schema';
import { loadMatchIndexes, loadMatchProfiles } from '../matching/load-indexes';
import type { MatchingService } from '../matching/matching-service';

/** The channel every API process over one PostgreSQL hears profile decisions on. */
const CHANNEL = 'locus_profile_index';

/** Brings one profile's entry in the index in line with the database: approved profiles are in it, any other is not. */
export async function refreshProfile(db: Db, service: MatchingService, profileId: string): Promise<void> {
  await refreshProfiles(db, service, [profileId]);
}

/** refreshProfile for many at once (a batch from a lower instance): one read of the approved ones. */
export async function refreshProfiles(db: Db, service: MatchingService, profileIds: readonly string[]): Promise<void> {
  if (profileIds.length === 0) return;
  const approved = await db.select({ id: profiles.id }).from(profiles).where(and(inArray(profiles.id, [...profileIds]), eq(profiles.status, 'approved')));
  const loaded = new Map((await loadMatchProfiles(db, approved.map((a) => a.id))).map((p) => [p.id, p]));
  for (const id of profileIds) {
    const profile = loaded.get(id);
    if (profile) service.approved(profile);
    else service.removed(id);
  }
}

export interface IndexSyncDeps {
  database: Database;
  service: MatchingService;
  /** Where a lost connection or a failed refresh is reported (the server's log). */
  onError(err: unknown, message: string): void;
  /** Wait before listening again after the connection was lost. */
  retryMs?: number;
}

/**
 * Keeps this process's index current with the decisions other processes make over the same
 * PostgreSQL (ARCHITECTURE.md "Scaling past one machine": a per-process cache kept current with
 * LISTEN/NOTIFY). Each decision is announced with the profile's id; a process that hears another's
 * announcement reads that profile again. A lost connection means announcements were missed: the
 * process listens again and rebuilds its index from the database. PGlite has one process: nothing to do.
 */
export class IndexSync {
  private readonly instance = randomUUID();
  private stop: (() => Promise<void>) | null = null;
  private closed = false;
  /** The wait before listening again after a lost connection; cleared on close so nothing restarts. */
  private retry: ReturnType<typeof setTimeout> | null = null;
  /** Profiles heard of while the index is being rebuilt: read again once the new index is in place. */
  private heardDuringRebuild: Set<string> | null = null;
  /** Stops a rebuild under way between two pages (close). */
  private readonly aborted = new AbortController();

  constructor(private readonly deps: IndexSyncDeps) {}

  /** The matcher this process keeps current. */
  get service(): MatchingService {
    return this.deps.service;
  }

  /** Listens for the other processes' decisions; already listening, nothing to do. */
  async start(): Promise<void> {
    const { database } = this.deps;
    if (!database.listen || this.closed || this.stop) return;
    const stop = await database.listen(CHANNEL, (payload) => void this.heard(payload), (err) => this.lost(err));
    // Closed while the connection was being opened: nobody else would end it.
    if (this.closed) await stop();
    else this.stop = stop;
  }

  /**
   * Listens, then reads the whole index from the database (start-up, and after a lost connection):
   * listening first means no decision falls between the two. The index in use keeps answering until
   * the new one replaces it; `onProgress` hears the profiles read so far and how many there are; close() stops the reading.
   */
  async listenAndRebuild(onProgress?: (loaded: number, total: number) => void): Promise<void> {
    await this.start();
    this.heardDuringRebuild = new Set();
    try {
      this.deps.service.replace(await loadMatchIndexes(this.deps.database.db, onProgress, this.aborted.signal));
    } finally {
      const heard = this.heardDuringRebuild;
      this.heardDuringRebuild = null;
      for (const profileId of heard) await refreshProfile(this.deps.database.db, this.deps.service, profileId);
    }
  }

  /**
   * A decision this process made: applied to the index in use, and read again once a rebuild under
   * way replaces it (the rebuild may have read the profile before the decision).
   */
  decided(profileId: string): void {
    this.heardDuringRebuild?.add(profileId);
  }

  /** Tells the other processes that a profile's decision changed (after it committed). */
  async announce(profileId: string): Promise<void> {
    await this.announceAll([profileId]);
  }

  /** announce for many profiles: one notification each (the listeners' form), one statement in all. */
  async announceAll(profileIds: readonly string[]): Promise<void> {
    if (profileIds.length === 0) return;
    await this.deps.database.notify?.(CHANNEL, ...profileIds.map((profileId) => JSON.stringify({ profileId, from: this.instance })));
  }

  /** Stops listening and ends the listening connection, so the pool can end (server shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    this.aborted.abort();
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    const stop = this.stop;
    this.stop = null;
    await stop?.();
  }

  private async heard(payload: string): Promise<void> {
    try {
      const { profileId, from } = JSON.parse(payload) as { profileId: string; from: string };
      if (from === this.instance) return;
      this.heardDuringRebuild?.add(profileId);
      await refreshProfile(this.deps.database.db, this.deps.service, profileId);
    } catch (err) {
      this.deps.onError(err, 'could not apply another process’s profile decision to the matching index');
    }
  }

  private lost(err: unknown): void {
    this.stop = null;
    if (this.closed) return;
    this.deps.onError(err, 'lost the connection that hears profile decisions; listening again and rebuilding the matching index');
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.resync();
    }, this.deps.retryMs ?? 1000);
  }

  private async resync(): Promise<void> {
    if (this.closed) return;
    try {
      await this.listenAndRebuild();
    } catch (err) {
      this.lost(err);
    }
  }
}
