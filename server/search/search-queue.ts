import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Clock } from '../clock';
import type { Db } from '../db/database';
import { profiles } from '../db/schema';
import { inBackground } from '../db/turn-kind';
import type { RecordMatchesInput } from '../hits/record-rule-matches';
import type { MatchingService } from '../matching/matching-service';
import { levelSearchedCount, withSearchedCount, type MatchRule, type RuleMatch } from '../matching/rule-match';
import type { MatchProfile } from '../matching/types';
import { MIXTURE_SAMPLE_TYPES } from '../../core/schemas/profiles';
import { searchedOrganizations } from '../network/held-organizations';
import { loadStainHeights } from './load-stain-heights';
import { profileFacts, stillApproved } from './still-approved';
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

/** Searches taken together by one loop at most: their profiles go to a worker as one task, their writes share statements. */
const GROUP_MAX = 100;

/**
 * The searches a loop takes as one task when `queued` wait and `idle` loops are not searching (the taking one among them):
 * an even share of the queue, at most GROUP_MAX (the thread table of `npm run bench` groups its searches so too).
 */
export const groupSize = (queued: number, idle: number): number => Math.min(GROUP_MAX, Math.ceil(queued / Math.max(1, idle)));

/** One approval searched in a group: its profile as the matcher reads it, its rules, where it looks, what it found. */
interface GroupSearch {
  job: SearchJob;
  reviewedAt: Date | null;
  profile: MatchProfile;
  rules: MatchRule[];
  organizationIds: string[];
  found: RuleMatch[];
  /** Why this search failed (its share's task failed, and so did its own task alone). */
  error?: Error;
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
  /** Of those loops, the ones searching a group now. */
  private searching = 0;
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
      // Background turns on PGlite's one connection (turn-kind.ts): a user's request goes before a search's reads
      // and hit writes, and a health probe between the statements of its transaction rather than after all of them
      // (issue 29: /api/health waited up to 155.9 ms behind forensic mixtures' hit writes). The loop would otherwise
      // take the turn kind of the request whose approval started it.
      const loop = inBackground(() => this.work()).finally(() => this.workers.delete(loop));
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
      const group = this.nextGroup();
      if (group.length === 0) {
        // In the same turn as the empty look: an enqueue from now on starts a loop of its own.
        this.looping--;
        return;
      }
      for (const job of group) {
        job.status = 'running';
        this.deps.onChange?.(job);
      }
      let outcomes: (number | Error)[];
      this.searching++;
      try {
        outcomes = await this.runGroup(group);
      } catch (err) {
        outcomes = group.map(() => (err instanceof Error ? err : new Error(String(err))));
      } finally {
        this.searching--;
      }
      for (const [i, job] of group.entries()) {
        const outcome = outcomes[i]!;
        if (typeof outcome === 'number') {
          job.hits = outcome;
          job.status = 'done';
        } else {
          job.status = 'failed';
          job.error = outcome.message;
          this.deps.onFailure?.(job, outcome);
        }
        job.finishedAt = this.deps.clock.now().toISOString();
        this.finished++;
        this.deps.onChange?.(job);
      }
      this.forgetOld();
    }
  }

  /**
   * The next searches, oldest first: this loop's share of the queue (the other loops take theirs), at most GROUP_MAX.
   * One approval is a group of one; a lower instance's batch of 500 is a few groups, not 500 worker tasks.
   */
  private nextGroup(): SearchJob[] {
    const size = groupSize(this.queued.size, this.looping - this.searching);
    const group: SearchJob[] = [];
    for (const job of this.queued.values()) {
      if (group.length === size) break;
      group.push(job);
    }
    for (const job of group) this.queued.delete(job.profileId);
    return group;
  }

  /** Searches a group of approvals: each job's new hits, or the error that failed it (the whole group's when its search failed). */
  private async runGroup(jobs: readonly SearchJob[]): Promise<(number | Error)[]> {
    const { db, matching } = this.deps;
    const approvals = new Map(
      (
        await db
          .select({ id: profiles.id, reviewedAt: profiles.reviewedAt, kind: profiles.kind, chemistryId: profiles.chemistryId, organizationId: profiles.organizationId, sampleType: profiles.sampleType })
          .from(profiles)
          .where(and(inArray(profiles.id, jobs.map((j) => j.profileId)), eq(profiles.status, 'approved')))
      ).map((a) => [a.id, a]),
    );
    // Read once per group: the rules of each organization × sample type × kind, the organizations each organization's searches look in.
    const ruleSets = new Map<string, Promise<MatchRule[]>>();
    const looksIn = new Map<string, Promise<string[]>>();
    const once = <T>(memo: Map<string, Promise<T>>, key: string, read: () => Promise<T>) => memo.get(key) ?? memo.set(key, read()).get(key)!;
    const searches: GroupSearch[] = [];
    for (const job of jobs) {
      const approval = approvals.get(job.profileId);
      // The index holds the approved genotypes (kept current on every decision): no second read of the markers.
      const held = matching.indexes.find(job.profileId);
      // Reset or deleted while it waited: nothing to search.
      if (!approval || !held) continue;
      // A stain's peak heights (issue 31): its mixture rules then weigh with the continuous model.
      const heights = approval.kind === 'Autosomal' && MIXTURE_SAMPLE_TYPES.has(approval.sampleType) ? await loadStainHeights(db, job.profileId, approval.chemistryId) : null;
      const profile: MatchProfile = { id: job.profileId, kind: approval.kind as MatchProfile['kind'], chemistryId: approval.chemistryId, organizationId: approval.organizationId, sampleType: approval.sampleType, genotypes: held.genotypes, ...(heights ? { heights } : {}) };
      const searched = { organizationId: profile.organizationId, sampleType: profile.sampleType ?? '', kind: profile.kind };
      const rules = await once(ruleSets, [searched.organizationId, searched.sampleType, searched.kind].join('\u0000'), () => loadSearchRules(db, this.inputs, searched, 'approval'));
      // The matcher looks in the profile's organization: at the upper level, a held profile is searched in each held laboratory's.
      const organizationIds = await once(looksIn, profile.organizationId, () => searchedOrganizations(db, profile.organizationId));
      searches.push({ job, reviewedAt: approval.reviewedAt, profile, rules, organizationIds, found: [] });
      job.done = 0;
      job.total = rules.length * organizationIds.length;
      this.deps.onChange?.(job);
    }
    await this.searchAll(searches);
    return this.record(jobs, searches);
  }

  /**
   * Every search of the group, each in every organization it looks in: on the workers one task per kind (one per
   * thread, its rule sets sent once), else here. A group of one reports its steps as they are done.
   */
  private async searchAll(searches: GroupSearch[]): Promise<void> {
    const { matching, pool } = this.deps;
    const lone = searches.length === 1 ? searches[0]! : null;
    const onProgress = lone
      ? (done: number, total: number) => {
          lone.job.done = done;
          lone.job.total = total;
          this.deps.onChange?.(lone.job);
        }
      : undefined;
    for (const kind of new Set(searches.map((s) => s.profile.kind))) {
      const items = searches.filter((s) => s.profile.kind === kind).flatMap((s) => s.organizationIds.map((organizationId) => ({ search: s, profile: { ...s.profile, organizationId } })));
      const sets = [...new Set(items.map((i) => i.search.rules))];
      let found: RuleMatch[][];
      if (pool) {
        // A lone search is one task (its steps in order); a group's searches are shared among the threads.
        const shares = lone ? [items] : splitEvenly(items, Math.min(pool.threads, items.length));
        const runShare = (share: typeof items) =>
          pool.run<RuleMatch[][]>(matching.indexes, kind, { task: 'rules', searches: share.map((i) => ({ profile: i.profile, rules: sets.indexOf(i.search.rules) })), rules: sets.map((set) => set.map(toWireRule)) }, onProgress ? { onProgress } : {});
        // A search that fails (a stain no model explains) fails alone: a share that failed is run again search by search.
        const alone = (item: (typeof items)[number]) =>
          runShare([item]).then(
            (answer) => answer[0]!,
            (err: unknown) => {
              item.search.error ??= err instanceof Error ? err : new Error(String(err));
              return [];
            },
          );
        const answers = await Promise.all(
          shares.map((share) =>
            share.length === 1
              ? alone(share[0]!).then((found) => [found])
              : runShare(share).catch(async () => {
                  const each: RuleMatch[][] = [];
                  for (const item of share) each.push(await alone(item));
                  return each;
                }),
          ),
        );
        found = answers.flat();
      } else {
        found = [];
        for (const item of items) {
          found.push(
            await matching.searchRules(item.profile, item.search.rules, onProgress ? { onProgress } : {}).catch((err: unknown) => {
              item.search.error ??= err instanceof Error ? err : new Error(String(err));
              return [];
            }),
          );
        }
      }
      for (const [i, item] of items.entries()) item.search.found.push(...found[i]!);
    }
    for (const s of searches) s.job.done = s.job.total;
  }

  /**
   * Writes the group's hits and marks its approvals searched: each job's new hits or its error. The hits are written
   * one search at a time, searches of other loops included (oneWriter): an identity hit supersedes a kinship hit of
   * the same pair that the other profile's search may be writing, which reads what the other wrote.
   */
  private async record(jobs: readonly SearchJob[], searches: readonly GroupSearch[]): Promise<(number | Error)[]> {
    const { db, matching } = this.deps;
    const outcome = new Map<SearchJob, number | Error>(jobs.map((j) => [j, 0]));
    // Each laboratory was searched apart: the chance figures count the whole level's profiles (what a notice carries down).
    const weigh = (s: GroupSearch) => {
      if (s.organizationIds.length === 1 || s.found.length === 0) return s.found;
      const level = new Map(s.rules.map((r) => [r.id, levelSearchedCount(matching.indexes, s.profile, s.organizationIds, r.searchedSampleTypes)]));
      return s.found.map((m) => withSearchedCount(m, level.get(m.ruleId)!));
    };
    // Weighed against the level as the index is when the search is done, before waiting for the writer.
    const weighed = new Map(searches.map((s) => [s, weigh(s)]));
    await this.oneWriter(async () => {
      const facts = await profileFacts(db, [...weighed.values()].flat());
      for (const s of searches) {
        if (s.error) {
          outcome.set(s.job, s.error);
          continue;
        }
        try {
          const { matches, sampleTypes } = stillApproved(facts, s.organizationIds, weighed.get(s)!);
          const recorded = matches.length === 0 ? 0 : await this.deps.record({ organizationId: s.profile.organizationId, matches, rules: new Map(s.rules.map((r) => [r.id, r])), sampleTypes });
          outcome.set(s.job, recorded + ((await this.deps.searchFamilies?.(s.profile)) ?? 0));
        } catch (err) {
          outcome.set(s.job, err instanceof Error ? err : new Error(String(err)));
        }
      }
    });
    // Marks each approval searched, unless a reset or a new approval came meanwhile (its own search is queued): one
    // statement per approval time (a batch's approvals share theirs).
    const byApproval = new Map<number | null, string[]>();
    for (const s of searches) {
      if (outcome.get(s.job) instanceof Error) continue;
      const at = s.reviewedAt?.getTime() ?? null;
      byApproval.set(at, [...(byApproval.get(at) ?? []), s.profile.id]);
    }
    for (const [at, ids] of byApproval) {
      const sameApproval = at === null ? isNull(profiles.reviewedAt) : eq(profiles.reviewedAt, new Date(at));
      await db.update(profiles).set({ searchedAt: sql`${profiles.reviewedAt}` }).where(and(inArray(profiles.id, ids), eq(profiles.status, 'approved'), sameApproval));
    }
    return jobs.map((j) => outcome.get(j)!);
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

/** `items` cut into `parts` runs of nearly equal length, in order. */
function splitEvenly<T>(items: readonly T[], parts: number): T[][] {
  return Array.from({ length: parts }, (_, p) => items.slice(Math.floor((p * items.length) / parts), Math.floor(((p + 1) * items.length) / parts)));
}
