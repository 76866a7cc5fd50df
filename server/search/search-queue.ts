import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Clock } from '../clock';
import type { Db } from '../db/database';
import { profiles } from '../db/schema';
import { loadMatchProfile } from '../matching/load-indexes';
import { loadActiveAnalyses, loadMatchPopulations } from '../matching/load-search-inputs';
import type { MatchingService } from '../matching/matching-service';
import type { HitCandidate } from '../matching/types';
import { organizationPopulationIds } from './organization-populations';

/** One database search of an approved profile, as the screens follow it. */
export interface SearchJob {
  id: string;
  profileId: string;
  sampleName: string;
  organizationId: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  /** Steps done out of total: an analysis over one chemistry's index and one population is a step. */
  done: number;
  total: number;
  /** New pending hits the search recorded. */
  hits: number;
  error: string | null;
  queuedAt: string;
  finishedAt: string | null;
}

export interface SearchQueueDeps {
  db: Db;
  clock: Clock;
  matching: MatchingService;
  /** Stores candidates as pending hits of the organization; resolves to how many were new (a repeated search adds none). */
  record(organizationId: string, candidates: readonly HitCandidate[]): Promise<number>;
  /** Where a failed search is reported (the server's log). */
  onFailure?(job: SearchJob, err: unknown): void;
  /** Called after a search is queued or its status, progress or hit count changes (open pages are told). */
  onChange?(job: SearchJob): void;
}

/** Finished searches kept for the screens; older ones are forgotten. */
const KEEP_FINISHED = 200;

/**
 * Only candidates whose every profile belongs to the searched profile's organization (a hit never
 * names another organization's profile) and is still approved (a reset during the search withdrew it).
 */
async function sameOrganization(db: Db, organizationId: string, candidates: readonly HitCandidate[]): Promise<HitCandidate[]> {
  const ids = [...new Set(candidates.flatMap((c) => c.profiles.map((p) => p.profileId)))];
  if (ids.length === 0) return [];
  const rows = await db.select({ id: profiles.id, organizationId: profiles.organizationId, status: profiles.status }).from(profiles).where(inArray(profiles.id, ids));
  const inside = new Set(rows.filter((r) => r.organizationId === organizationId && r.status === 'approved').map((r) => r.id));
  return candidates.filter((c) => c.profiles.every((p) => inside.has(p.profileId)));
}

/**
 * The background searches of ARCHITECTURE.md "Matching": approving a profile queues a search with
 * every active analysis of its kind over each of its organization's populations; searches run one
 * at a time, yielding between steps, and each result over the analysis threshold becomes a pending
 * hit. A finished search marks its approval searched (profiles.searchedAt); `resume` queues again, at
 * start-up, every approval whose search a stop or crash cut off.
 */
export class SearchQueue {
  private readonly jobs: SearchJob[] = [];
  private worker: Promise<void> | null = null;

  constructor(private readonly deps: SearchQueueDeps) {}

  /** Queues a search of an approved profile; a search of the same profile still waiting is not queued twice. */
  enqueue(profile: { id: string; profileId: string; organizationId: string }): SearchJob {
    const waiting = this.jobs.find((j) => j.profileId === profile.id && j.status === 'queued');
    if (waiting) return waiting;
    const job: SearchJob = {
      id: randomUUID(),
      profileId: profile.id,
      sampleName: profile.profileId,
      organizationId: profile.organizationId,
      status: 'queued',
      done: 0,
      total: 0,
      hits: 0,
      error: null,
      queuedAt: this.deps.clock.now().toISOString(),
      finishedAt: null,
    };
    this.jobs.push(job);
    this.deps.onChange?.(job);
    this.worker ??= this.work().finally(() => {
      this.worker = null;
    });
    return job;
  }

  /** Queues every approved profile whose current approval has not been searched (start-up); resolves to how many. */
  async resume(): Promise<number> {
    const waiting = await this.deps.db
      .select({ id: profiles.id, profileId: profiles.profileId, organizationId: profiles.organizationId })
      .from(profiles)
      .where(and(eq(profiles.status, 'approved'), or(isNull(profiles.searchedAt), ne(profiles.searchedAt, profiles.reviewedAt))))
      .orderBy(asc(profiles.reviewedAt), asc(profiles.id));
    for (const profile of waiting) this.enqueue(profile);
    return waiting.length;
  }

  /** The searches of these organizations (all when null), newest first. */
  list(organizationIds: readonly string[] | null): SearchJob[] {
    return this.jobs.filter((j) => organizationIds === null || organizationIds.includes(j.organizationId)).reverse().map((j) => ({ ...j }));
  }

  /** Resolves when every queued search has finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.worker) await this.worker;
  }

  private async work(): Promise<void> {
    for (let job = this.next(); job; job = this.next()) {
      job.status = 'running';
      this.deps.onChange?.(job);
      try {
        job.hits = await this.run(job);
        job.status = 'done';
      } catch (err) {
        job.status = 'failed';
        job.error = err instanceof Error ? err.message : String(err);
        this.deps.onFailure?.(job, err);
      }
      job.finishedAt = this.deps.clock.now().toISOString();
      this.deps.onChange?.(job);
      this.forgetOld();
    }
  }

  private next(): SearchJob | undefined {
    return this.jobs.find((j) => j.status === 'queued');
  }

  private async run(job: SearchJob): Promise<number> {
    const { db, matching } = this.deps;
    const [approval] = await db.select({ reviewedAt: profiles.reviewedAt }).from(profiles).where(and(eq(profiles.id, job.profileId), eq(profiles.status, 'approved')));
    const profile = await loadMatchProfile(db, job.profileId);
    // Reset or deleted while it waited: nothing to search.
    if (!approval || !profile || !matching.indexes.find(profile.id)) return 0;
    const analyses = await loadActiveAnalyses(db, profile.kind);
    const populations = await loadMatchPopulations(db, await organizationPopulationIds(db, profile.organizationId, profile.kind));
    const found = await matching.search(profile, analyses, populations, {
      onProgress: (done, total) => {
        job.done = done;
        job.total = total;
        this.deps.onChange?.(job);
      },
    });
    const candidates = await sameOrganization(db, profile.organizationId, found);
    const recorded = candidates.length === 0 ? 0 : await this.deps.record(profile.organizationId, candidates);
    // Marks this approval searched, unless a reset or a new approval came meanwhile (its own search is queued).
    const sameApproval = approval.reviewedAt === null ? isNull(profiles.reviewedAt) : eq(profiles.reviewedAt, approval.reviewedAt);
    await db.update(profiles).set({ searchedAt: sql`${profiles.reviewedAt}` }).where(and(eq(profiles.id, profile.id), eq(profiles.status, 'approved'), sameApproval));
    return recorded;
  }

  private forgetOld(): void {
    const finished = this.jobs.filter((j) => j.finishedAt !== null);
    for (const old of finished.slice(0, Math.max(0, finished.length - KEEP_FINISHED))) this.jobs.splice(this.jobs.indexOf(old), 1);
  }
}
