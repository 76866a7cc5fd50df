import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Clock } from '../clock';
import type { Db } from '../db/database';
import { profiles } from '../db/schema';
import type { RecordMatchesInput } from '../hits/record-rule-matches';
import type { MatchingService } from '../matching/matching-service';
import { levelSearchedCount, withSearchedCount, type RuleMatch } from '../matching/rule-match';
import type { MatchProfile } from '../matching/types';
import { MIXTURE_SAMPLE_TYPES } from '../../core/schemas/profiles';
import { searchedOrganizations } from '../network/held-organizations';
import { loadStainHeights } from './load-stain-heights';
import { loadSearchRules, SearchInputCache, type PopulationCache } from './load-search-rules';
import type { SearchPool } from './search-pool';
import { toWireRule } from './search-wire';

/** One database search of an approved profile, as the screens follow it. */
export interface SearchJob {
  id: string;
  profileId: string;
  sampleName: string;
  organizationId: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  /** Steps done out of total: one search rule is a step. */
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
  /** Stores a search's matches as pending hits of the organization; resolves to how many were new (a repeated search adds none). */
  record(input: RecordMatchesInput): Promise<number>;
  /** Weighs an approved profile against the active missing-person families (remains only); resolves to the hits added. */
  searchFamilies?(profile: MatchProfile): Promise<number>;
  /** Where a failed search is reported (the server's log). */
  onFailure?(job: SearchJob, err: unknown): void;
  /** Called after a search is queued or its status, progress or hit count changes (open pages are told). */
  onChange?(job: SearchJob): void;
  /**
   * Resolves once the matching index is loaded (start-up loads it in the background): searches stay
   * queued until then. Rejects when the server stops first: they stay queued, and the next start resumes them.
   */
  waitForIndex?(): Promise<void>;
  /** The search workers: the rules run there, several searches at once up to its threads (without one, here, one at a time). */
  pool?: SearchPool;
}

/** Finished searches kept for the screens; older ones are forgotten. */
const KEEP_FINISHED = 200;

/**
 * Only matches whose candidate belongs to an organization the search looked in (a hit never names another
 * organization's profile, but at the upper level every held laboratory's: held-organizations.ts) and is still approved
 * (a reset during the search withdrew it), with every profile's sample type (the hit's roles).
 */
async function stillApproved(db: Db, organizationIds: readonly string[], matches: readonly RuleMatch[]): Promise<{ matches: RuleMatch[]; sampleTypes: Map<string, string> }> {
  const ids = [...new Set(matches.flatMap((m) => [m.queryId, m.candidateId]))];
  if (ids.length === 0) return { matches: [], sampleTypes: new Map() };
  const rows = await db.select({ id: profiles.id, organizationId: profiles.organizationId, status: profiles.status, sampleType: profiles.sampleType }).from(profiles).where(inArray(profiles.id, ids));
  const inside = new Set(rows.filter((r) => organizationIds.includes(r.organizationId) && r.status === 'approved').map((r) => r.id));
  return { matches: matches.filter((m) => inside.has(m.queryId) && inside.has(m.candidateId)), sampleTypes: new Map(rows.map((r) => [r.id, r.sampleType])) };
}

/**
 * The background searches of ARCHITECTURE.md "Matching" and "Search policy": approving a profile queues
 * a search with every automatic rule of its sample type; searches run one at a time, yielding between
 * rules, and each match becomes one pending hit. A finished search marks its approval searched (profiles.searchedAt); `resume` queues again, at
 * start-up, every approval whose search a stop or crash cut off.
 */
export class SearchQueue {
  private readonly jobs: SearchJob[] = [];
  /** The queued searches by profile, oldest first (a Map keeps insertion order): a lower instance's batches queue 100,000. */
  private readonly queued = new Map<string, SearchJob>();
  /** Finished searches among `jobs`. */
  private finished = 0;
  /** The loops taking queued searches, at most one per search thread; counted apart so a loop that just found the queue empty is not counted on. */
  private readonly workers = new Set<Promise<void>>();
  private looping = 0;
  /** The end of the last hit write queued (see oneWriter). */
  private writes: Promise<void> = Promise.resolve();
  /** Population statistics and analyses, reloaded only when they change. */
  readonly inputs = new SearchInputCache();

  /** The population statistics the searches share (a familial search reads them too). */
  get populations(): PopulationCache {
    return this.inputs.populations;
  }

  constructor(private readonly deps: SearchQueueDeps) {}

  /** Queues a search of an approved profile; a search of the same profile still waiting is not queued twice. */
  enqueue(profile: { id: string; profileId: string; organizationId: string }): SearchJob {
    const waiting = this.queued.get(profile.id);
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
    this.queued.set(profile.id, job);
    this.deps.onChange?.(job);
    this.start();
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
    while (this.workers.size > 0) await Promise.all([...this.workers]);
  }

  /** Searches run at once: one per search thread. */
  private get concurrency(): number {
    return this.deps.pool?.threads ?? 1;
  }

  /** Starts loops up to the concurrency while searches wait. */
  private start(): void {
    while (this.looping < Math.min(this.concurrency, this.queued.size)) {
      this.looping++;
      const loop = this.work().finally(() => this.workers.delete(loop));
      this.workers.add(loop);
    }
  }

  private async work(): Promise<void> {
    try {
      await this.deps.waitForIndex?.();
    } catch {
      this.looping--;
      return;
    }
    for (;;) {
      const job = this.next();
      if (!job) {
        // In the same turn as the empty look: an enqueue from now on starts a loop of its own.
        this.looping--;
        return;
      }
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
      this.finished++;
      this.deps.onChange?.(job);
      this.forgetOld();
    }
  }

  private next(): SearchJob | undefined {
    const [job] = this.queued.values();
    if (job) this.queued.delete(job.profileId);
    return job;
  }

  private async run(job: SearchJob): Promise<number> {
    const { db, matching } = this.deps;
    const [approval] = await db
      .select({ reviewedAt: profiles.reviewedAt, kind: profiles.kind, chemistryId: profiles.chemistryId, organizationId: profiles.organizationId, sampleType: profiles.sampleType })
      .from(profiles)
      .where(and(eq(profiles.id, job.profileId), eq(profiles.status, 'approved')));
    // The index holds the approved genotypes (kept current on every decision): no second read of the markers.
    const held = matching.indexes.find(job.profileId);
    // Reset or deleted while it waited: nothing to search.
    if (!approval || !held) return 0;
    // A stain's peak heights (issue 31): its mixture rules then weigh with the continuous model.
    const heights = approval.kind === 'Autosomal' && MIXTURE_SAMPLE_TYPES.has(approval.sampleType) ? await loadStainHeights(db, job.profileId, approval.chemistryId) : null;
    const profile: MatchProfile = { id: job.profileId, kind: approval.kind as MatchProfile['kind'], chemistryId: approval.chemistryId, organizationId: approval.organizationId, sampleType: approval.sampleType, genotypes: held.genotypes, ...(heights ? { heights } : {}) };
    const rules = await loadSearchRules(db, this.inputs, { organizationId: profile.organizationId, sampleType: profile.sampleType ?? '', kind: profile.kind }, 'approval');
    const onProgress = (done: number, total: number) => {
      job.done = done;
      job.total = total;
      this.deps.onChange?.(job);
    };
    const { pool } = this.deps;
    // The matcher looks in the profile's organization: at the upper level, a held profile is searched in each held laboratory's.
    const organizationIds = await searchedOrganizations(db, profile.organizationId);
    const steps = rules.length * organizationIds.length;
    onProgress(0, steps);
    const found: RuleMatch[] = [];
    for (const [i, organizationId] of organizationIds.entries()) {
      const scoped = { ...profile, organizationId };
      const progress = { onProgress: (done: number) => onProgress(i * rules.length + done, steps) };
      found.push(...(pool ? await pool.run<RuleMatch[]>(matching.indexes, profile.kind, { task: 'rules', profile: scoped, rules: rules.map(toWireRule) }, progress) : await matching.searchRules(scoped, rules, progress)));
    }
    // Each laboratory was searched apart: the chance figures count the whole level's profiles (what a notice carries down).
    const level = organizationIds.length > 1 ? new Map(rules.map((r) => [r.id, levelSearchedCount(matching.indexes, profile, organizationIds, r.searchedSampleTypes)])) : null;
    const weighed = level ? found.map((m) => withSearchedCount(m, level.get(m.ruleId)!)) : found;
    // Searches run at once, their hits are written one search at a time: an identity hit supersedes a kinship hit of the
    // same pair that the other profile's search may be writing, which reads what the other wrote.
    const { recorded, familyHits } = await this.oneWriter(async () => {
      const { matches, sampleTypes } = await stillApproved(db, organizationIds, weighed);
      const recorded = matches.length === 0 ? 0 : await this.deps.record({ organizationId: profile.organizationId, matches, rules: new Map(rules.map((r) => [r.id, r])), sampleTypes });
      const familyHits = (await this.deps.searchFamilies?.(profile)) ?? 0;
      return { recorded, familyHits };
    });
    // Marks this approval searched, unless a reset or a new approval came meanwhile (its own search is queued).
    const sameApproval = approval.reviewedAt === null ? isNull(profiles.reviewedAt) : eq(profiles.reviewedAt, approval.reviewedAt);
    await db.update(profiles).set({ searchedAt: sql`${profiles.reviewedAt}` }).where(and(eq(profiles.id, profile.id), eq(profiles.status, 'approved'), sameApproval));
    return recorded + familyHits;
  }

  /** Runs `write` after every write queued before it. */
  private oneWriter<T>(write: () => Promise<T>): Promise<T> {
    const turn = this.writes.then(write);
    this.writes = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn;
  }

  /** Forgets the oldest finished searches beyond KEEP_FINISHED; they sit near the front, ahead of the queued ones. */
  private forgetOld(): void {
    while (this.finished > KEEP_FINISHED) {
      this.jobs.splice(this.jobs.findIndex((j) => j.finishedAt !== null), 1);
      this.finished--;
    }
  }
}
