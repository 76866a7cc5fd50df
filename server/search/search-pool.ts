import { availableParallelism } from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import { MixtureError } from '../genetics/mixture/mixture-lr';
import { workerPool } from '../jobs/worker-pool';
import type { IndexSet } from '../matching/index-set';
import type { ProfileIndexSnapshot } from '../matching/profile-index';
import type { ProfileKind } from '../matching/types';
import { runSearch, splitPlan, type SearchOutcome, type SearchRequest, type SearchTask } from './search-worker';

// A constant, not an inline URL: Vite rewrites `new URL('./x.ts', import.meta.url)` into an asset when the server runs in component tests.
const WORKER = './search-worker.ts';

/** Search threads by default: one per core (ARCHITECTURE.md "Using every core"). */
export const defaultSearchThreads = (): number => availableParallelism();

/** Fewest profiles a slice of a split search holds: below it, handing out the slices costs more than they save. */
const SLICE_MIN = 50_000;


type Task = SearchRequest;
type WarmUpTask = Extract<Task, { task: 'warm-up' }>;

/** A worker's answer, or the failure it reported by name raised again as its class. */
function unwrap<T>(outcome: SearchOutcome): T {
  if ('failed' in outcome) throw new MixtureError(outcome.failed.message);
  return outcome.ok as T;
}

/** Where a search stands while it waits for a thread. */
export interface PoolState {
  threads: number;
  /** Searches running on a thread now. */
  running: number;
  /** Searches waiting for a thread. */
  queued: number;
}

/**
 * The search workers (ARCHITECTURE.md "Using every core"): a search pins the indexes it reads (their shared
 * memory, no copy), runs on the next free thread, and unpins them when it is done; the main thread stays free
 * for requests meanwhile. More searches than threads wait their turn in the pool's queue.
 */
export class SearchPool {
  private running = 0;

  constructor(readonly threads: number = defaultSearchThreads()) {}

  get state(): PoolState {
    const pool = this.pool();
    return { threads: this.threads, running: this.running, queued: pool.queueSize };
  }

  /**
   * Runs `task` over the indexes of `kind` (all kinds when undefined) as they are now; `onProgress` hears a rule
   * search's steps. Masks over group codes may be made before: codes never change, and a group added since is outside them.
   */
  async run<T>(indexes: IndexSet, kind: ProfileKind | undefined, task: Task, { onProgress }: { onProgress?: (done: number, total: number) => void } = {}): Promise<T> {
    const { snapshots, release } = indexes.pin(kind);
    const channel = onProgress && task.task === 'rules' ? new MessageChannel() : null;
    this.running++;
    try {
      const full = { ...task, indexes: snapshots, ...(channel ? { port: channel.port2 } : {}) } as SearchTask;
      channel?.port1.on('message', (p: { done: number; total: number }) => onProgress?.(p.done, p.total));
      return unwrap<T>((await this.pool().run(full, channel ? { transferList: [channel.port2] as never } : {})) as SearchOutcome);
    } finally {
      this.running--;
      channel?.port1.close();
      release();
    }
  }

  /**
   * One search split into `parts` slices of every index, each on a thread, merged in slice order by `merge`
   * (ARCHITECTURE.md "Using every core": the merge gives the single-thread answer). One pin covers every part. A search
   * with per-search work (splitPlan) does it once for every slice: a kinship scan's tables in shares of the query's
   * markers, one per thread at once (a mixture rule's likewise; its slices do the rest of its per-search work each).
   */
  async runParts<T, R = T>(indexes: IndexSet, kind: ProfileKind | undefined, task: Task, parts: number, merge: (parts: T[]) => R): Promise<R> {
    const plan = parts > 1 ? splitPlan(task, parts) : null;
    if (plan) return this.runPrepared(indexes, kind, plan.prepare, plan.then, parts, merge, plan.join);
    return this.onPin(indexes, kind, parts, (snapshots) => this.slices(snapshots, task, parts, merge));
  }

  /**
   * A search in two steps over one pin of the indexes: `prepare` over the whole snapshot (a search's per-search work; several
   * tasks run at once, each a share of it, their answers joined by `join`), then `then(prepared)` split into `parts`
   * slices, merged in order (issue 29: a kinship scan's or a mixture rule's tables in shares).
   */
  async runPrepared<P, T, R = T>(indexes: IndexSet, kind: ProfileKind | undefined, prepare: Task | Task[], then: (prepared: P) => Task, parts: number, merge: (parts: T[]) => R, join: (shares: unknown[]) => P = (shares) => shares[0] as P): Promise<R> {
    return this.onPin(indexes, kind, parts, async (snapshots) => {
      const tasks = Array.isArray(prepare) ? prepare : [prepare];
      const shares = (await Promise.all(tasks.map((t) => this.pool().run({ ...t, indexes: snapshots } as SearchTask)))) as SearchOutcome[];
      return this.slices(snapshots, then(join(shares.map((s) => unwrap<unknown>(s)))), parts, merge);
    });
  }

  /** Runs `search` over a pin of the indexes, counting `parts` threads busy meanwhile. */
  private async onPin<R>(indexes: IndexSet, kind: ProfileKind | undefined, parts: number, search: (snapshots: ProfileIndexSnapshot[]) => Promise<R>): Promise<R> {
    const { snapshots, release } = indexes.pin(kind);
    this.running += parts;
    try {
      return await search(snapshots);
    } finally {
      this.running -= parts;
      release();
    }
  }

  /** `task` over each of `parts` slices of the pinned indexes, at once, merged in slice order. */
  private async slices<T, R>(snapshots: ProfileIndexSnapshot[], task: Task, parts: number, merge: (parts: T[]) => R): Promise<R> {
    const outcomes = (await Promise.all(Array.from({ length: parts }, (_, part) => this.pool().run({ ...task, indexes: snapshots, part: { part, of: parts } } as SearchTask)))) as SearchOutcome[];
    return merge(outcomes.map((o) => unwrap<T>(o)));
  }

  /** The place a search asked now takes in the queue: 0 when a thread is free, else 1 + the searches already waiting. */
  queuePosition(): number {
    const { threads, running, queued } = this.state;
    return running < threads ? 0 : queued + 1;
  }

  /** Slices worth splitting a search of `profiles` into: one per thread, but none under SLICE_MIN profiles. */
  partsFor(profiles: number): number {
    return Math.max(1, Math.min(this.threads, Math.floor(profiles / SLICE_MIN)));
  }

  /**
   * Starts every thread and has each run a warm-up search over the indexes (warm-up.ts), so no user's search waits for
   * a thread to start or compile (about a second each); the threads then stay up for the server's life. Resolves to
   * the threads that warmed up.
   */
  async warm(indexes: IndexSet): Promise<number[]> {
    return this.meet((task) => this.run<{ threadId: number }>(indexes, 'Autosomal', task));
  }

  /**
   * Starts every thread and resolves once each has loaded its modules (about a second of CPU each): a warm-up over no
   * index, counted as no search. The server's start-up does this before its index load, so the two do not share the cores.
   */
  async start(): Promise<number[]> {
    return this.meet(async (task) => unwrap<{ threadId: number }>((await this.pool().run({ ...task, indexes: [] } satisfies SearchTask)) as SearchOutcome));
  }

  /** One warm-up task per thread: the tasks meet before they warm up (meetThenWarmUp), so each thread gets one. */
  private async meet(send: (task: WarmUpTask) => Promise<{ threadId: number }>): Promise<number[]> {
    const arrived = new Int32Array(new SharedArrayBuffer(4));
    const done = await Promise.all(Array.from({ length: this.threads }, () => send({ task: 'warm-up', arrived, threads: this.threads })));
    return done.map((d) => d.threadId);
  }

  private pool() {
    // Every thread kept: starting one costs about a second, and its first searches compile (issue 29's first-search waits).
    return workerPool(new URL(WORKER, import.meta.url), { maxThreads: this.threads, minThreads: this.threads });
  }
}

/** Runs a search on the pool when there is one, else here (a route tested without the server's search runtime). */
export async function searchOn<T>(pool: SearchPool | undefined, indexes: IndexSet, kind: ProfileKind | undefined, task: Task): Promise<T> {
  return pool ? pool.run<T>(indexes, kind, task) : (runSearch(task, indexes) as T);
}

/** A search split over the pool's threads by slices of the indexes (as many as are worth it, `leave` kept free), else here whole. */
export async function searchOnParts<T>(pool: SearchPool | undefined, indexes: IndexSet, kind: ProfileKind, task: Task, merge: (parts: T[]) => T, options: { leave?: number } = {}): Promise<T> {
  if (!pool) return runSearch(task, indexes) as T;
  const profiles = indexes.indexes(kind).reduce((n, index) => n + index.size, 0);
  // `leave`: threads kept free for work the caller runs beside this search.
  return pool.runParts<T>(indexes, kind, task, Math.max(1, pool.partsFor(profiles) - (options.leave ?? 0)), merge);
}
