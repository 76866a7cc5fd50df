import { randomUUID } from 'node:crypto';
import { MessageChannel } from 'node:worker_threads';
import { eq, inArray } from 'drizzle-orm';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import type { SelfComparisonJob, SelfComparisonPair, SelfComparisonProfile, SelfComparisonPairsQuery } from '../../core/schemas/self-comparison';
import { appendAudit, type AuditActor } from '../audit/audit-trail';
import type { Clock } from '../clock';
import type { Db } from '../db/database';
import { cases, profiles } from '../db/schema';
import { Conflict } from '../errors';
import { workerPool } from '../jobs/worker-pool';
import { yieldToEventLoop } from '../jobs/yield';
import type { MatchingService } from '../matching/matching-service';
import type { ProfileIndex } from '../matching/profile-index';
import { columnsOf, comparePair, type SelfComparisonProgress, type SelfComparisonResult } from '../matching/self-comparison';
import { packColumns, type SelfComparisonTask } from '../matching/self-comparison-worker';
import type { ProfileKind } from '../matching/types';

// Database self-comparison as a background job (issue 15; ARCHITECTURE.md "Heavy work off the request
// thread"). The columns of the chemistry's index (the main thread's, kept current on approve and
// reset) are copied into one buffer at the start — a snapshot, tens of milliseconds for a million
// profiles — and moved to a worker thread that runs the comparison (server/matching/self-comparison.ts)
// and reports progress over a port; cancel terminates the worker.
//
// One job at a time per scope (an organization, or `all` for scope All); the last job of each scope
// and its report stay in this process's memory until the next run replaces them or the server stops.
// A report is minutes old at most when read and is recomputed in seconds, so it is not worth a table
// and a migration; after a restart the screen says there is none and offers to run it again.

/** The worker file, named in a constant (see server/jobs/worker-pool.ts). */
const WORKER_FILE = '../matching/self-comparison-worker.ts';
const worker = new URL(WORKER_FILE, import.meta.url);

/** Runs again when profiles were approved or reset during a run (slots moved), at most this many times. */
const MAX_ATTEMPTS = 3;
/** Ids looked up per statement when the report is listed. */
const LOOKUP_CHUNK = 1000;

/** Whose profiles a job compares: one organization, or every organization (`all`, scope All). */
export type SelfComparisonScope = string;

export interface SelfComparisonStartInput {
  scope: SelfComparisonScope;
  chemistry: { id: string; name: string; kind: ProfileKind };
  maxDifferences: number;
  minEqualMarkers: number;
  actor: AuditActor;
  /** Pairs kept at most (tests); the comparison's default otherwise. */
  maxPairs?: number;
}

interface JobRecord {
  view: SelfComparisonJob;
  pairs: SelfComparisonPair[];
  controller: AbortController;
  finished: Promise<void>;
}

export interface SelfComparisonJobsDeps {
  db: Db;
  clock: Clock;
  /** The matcher once its index is loaded; throws (503) while it loads. */
  matcher(): MatchingService;
  /** Where a failed job is reported (the server's log). */
  onError(err: unknown, message: string): void;
}

/** What identifies a snapshot's slots: while these hold, slot s still holds the profile it held. */
function fingerprint(index: ProfileIndex): string {
  const size = index.size;
  return `${size}:${size > 0 ? index.idAt(size - 1) : ''}`;
}

const iso = (d: Date) => d.toISOString();

export class SelfComparisonJobs {
  private readonly byScope = new Map<SelfComparisonScope, JobRecord>();

  constructor(private readonly deps: SelfComparisonJobsDeps) {}

  /** The scope's last job (running or finished), or undefined. */
  current(scope: SelfComparisonScope): SelfComparisonJob | undefined {
    const record = this.byScope.get(scope);
    return record && { ...record.view };
  }

  /** Starts a comparison; 409 while the scope's previous one runs. The matcher must be ready (503 otherwise). */
  async start(input: SelfComparisonStartInput): Promise<SelfComparisonJob> {
    const running = this.byScope.get(input.scope);
    if (running?.view.state === 'running') throw new Conflict('A self-comparison of these profiles is already running: wait for it, or cancel it first.');
    const service = this.deps.matcher();
    const now = this.deps.clock.now();
    const view: SelfComparisonJob = {
      id: randomUUID(),
      organizationId: input.scope,
      chemistryId: input.chemistry.id,
      chemistryName: input.chemistry.name,
      maxDifferences: input.maxDifferences,
      minEqualMarkers: input.minEqualMarkers,
      state: 'running',
      phase: 'preparing',
      blocksDone: 0,
      blocksTotal: input.maxDifferences + 2,
      pairsVerified: 0,
      pairsFound: 0,
      profilesCompared: null,
      tooFewMarkers: null,
      mixturesLeftOut: null,
      duplicateCount: 0,
      nearDuplicateCount: 0,
      truncated: false,
      startedBy: input.actor.name,
      startedAt: iso(now),
      finishedAt: null,
      elapsedMs: null,
      message: null,
    };
    const controller = new AbortController();
    const record: JobRecord = { view, pairs: [], controller, finished: Promise.resolve() };
    // Registered before the first await, so a second start at the same moment is refused (409).
    this.byScope.set(input.scope, record);
    try {
      // Who compared what is kept: the report lists profiles of the whole organization.
      await this.deps.db.transaction((tx) =>
        appendAudit(tx, input.actor, this.deps.clock, {
          entity: 'SelfComparison',
          entityId: view.id,
          action: 'Run',
          organizationId: input.scope === 'all' ? null : input.scope,
          after: { chemistryId: input.chemistry.id, maxDifferences: input.maxDifferences, minEqualMarkers: input.minEqualMarkers, scope: input.scope },
        }),
      );
    } catch (err) {
      if (running) this.byScope.set(input.scope, running);
      else this.byScope.delete(input.scope);
      throw err;
    }
    record.finished = this.run(record, input, service).catch((err: unknown) => {
      const cancelled = controller.signal.aborted;
      Object.assign(view, {
        state: cancelled ? 'cancelled' : 'failed',
        phase: 'finished',
        finishedAt: iso(this.deps.clock.now()),
        message: cancelled ? 'Cancelled: nothing was compared to the end, so no pairs are listed.' : 'The comparison failed; try again. The server log has the details.',
      });
      record.pairs = [];
      if (!cancelled) this.deps.onError(err, 'self-comparison failed');
    });
    return { ...view };
  }

  /** Stops the scope's running job; 409 when none runs. */
  cancel(scope: SelfComparisonScope): SelfComparisonJob {
    const record = this.byScope.get(scope);
    if (!record || record.view.state !== 'running') throw new Conflict('No self-comparison of these profiles is running.');
    record.controller.abort();
    return { ...record.view };
  }

  /** A page of the scope's finished report, duplicates first; undefined when there is no job. */
  pairs(scope: SelfComparisonScope, query: SelfComparisonPairsQuery): { items: SelfComparisonPair[]; count: number } | undefined {
    const record = this.byScope.get(scope);
    if (!record) return undefined;
    const all = query.kind === 'all' ? record.pairs : record.pairs.filter((p) => p.kind === query.kind);
    return { items: all.slice(query.page * query.pageSize, (query.page + 1) * query.pageSize), count: all.length };
  }

  /** Every pair of the scope's report (the CSV download), with its job; undefined when there is no job. */
  report(scope: SelfComparisonScope): { job: SelfComparisonJob; pairs: readonly SelfComparisonPair[] } | undefined {
    const record = this.byScope.get(scope);
    return record && { job: { ...record.view }, pairs: record.pairs };
  }

  /** Resolves when every job has settled (tests, shutdown). */
  async idle(): Promise<void> {
    await Promise.all([...this.byScope.values()].map((r) => r.finished));
  }

  /** Cancels every running job (server shutdown). */
  async close(): Promise<void> {
    for (const r of this.byScope.values()) if (r.view.state === 'running') r.controller.abort();
    await this.idle();
  }

  private async run(record: JobRecord, input: SelfComparisonStartInput, service: MatchingService): Promise<void> {
    const { view, controller } = record;
    const started = performance.now();
    for (let attempt = 1; ; attempt++) {
      const index = service.indexes.indexes(input.chemistry.kind).find((i) => i.chemistryId === input.chemistry.id);
      if (!index) {
        // No approved profile of this chemistry anywhere.
        Object.assign(view, { profilesCompared: 0, tooFewMarkers: 0, mixturesLeftOut: 0, blocksDone: view.blocksTotal });
        break;
      }
      // The snapshot: the flags at once, the columns a few at a time (other requests get in between); an
      // approval or reset meanwhile changes the fingerprint, checked after the run, and the run is repeated.
      const before = fingerprint(index);
      const mask = index.groupMask((g) => input.scope === 'all' || g.organizationId === input.scope);
      const columns = columnsOf(index, mask);
      let mixtures = 0;
      for (const id of index.side.keys()) if (index.sideInGroups(id, mask)) mixtures++;
      const task: Omit<SelfComparisonTask, 'port'> = {
        names: [...columns.names],
        alleles: columns.alleles.map((a) => [...a]),
        size: columns.size,
        bytes: await packColumns(columns.lo, columns.hi, columns.include!, columns.size, yieldToEventLoop),
        maxDifferences: input.maxDifferences,
        minEqualMarkers: input.minEqualMarkers,
        ...(input.maxPairs !== undefined ? { maxPairs: input.maxPairs } : {}),
      };
      view.phase = 'comparing';
      view.mixturesLeftOut = mixtures;
      const result = await this.compare(task, controller.signal, (p) => Object.assign(view, p));
      const moved = index !== service.indexes.indexes(input.chemistry.kind).find((i) => i.chemistryId === input.chemistry.id) || fingerprint(index) !== before;
      if (moved && attempt < MAX_ATTEMPTS) continue;
      view.phase = 'listing';
      Object.assign(view, { profilesCompared: result.compared, tooFewMarkers: result.tooFewMarkers, truncated: result.truncated, pairsVerified: result.pairsVerified });
      record.pairs = await this.listPairs(index, input, result);
      if (moved) view.message = 'Profiles were approved or reset while the comparison ran: the pairs listed hold now, but pairs of profiles that moved may be missing. Run it again for a complete report.';
      break;
    }
    if (controller.signal.aborted) throw new Error('cancelled');
    Object.assign(view, {
      state: 'done',
      phase: 'finished',
      pairsFound: record.pairs.length,
      duplicateCount: record.pairs.filter((p) => p.kind === 'duplicate').length,
      nearDuplicateCount: record.pairs.filter((p) => p.kind === 'near-duplicate').length,
      elapsedMs: Math.round(performance.now() - started),
      finishedAt: iso(this.deps.clock.now()),
    });
  }

  /** The comparison in a worker thread: the buffer moves there, progress comes back over a port. */
  private async compare(task: Omit<SelfComparisonTask, 'port'>, signal: AbortSignal, onProgress: (p: SelfComparisonProgress) => void): Promise<SelfComparisonResult> {
    const { port1, port2 } = new MessageChannel();
    port1.on('message', (p: SelfComparisonProgress) => onProgress(p));
    const full: SelfComparisonTask = { ...task, port: port2 };
    try {
      const moving = move({
        get [transferableSymbol]() {
          return [task.bytes, port2];
        },
        get [valueSymbol]() {
          return full;
        },
      });
      return (await workerPool(worker).run(moving, { signal })) as SelfComparisonResult;
    } finally {
      port1.close();
    }
  }

  /**
   * The pairs with names and cases. Each pair is checked again on the index as it is now, and both
   * profiles must still be approved and in the scope (the index may lag a reset by a moment): a
   * profile of another organization is never listed.
   */
  private async listPairs(index: ProfileIndex, input: SelfComparisonStartInput, result: SelfComparisonResult): Promise<SelfComparisonPair[]> {
    const live = columnsOf(index);
    const checked: { first: string; second: string; pair: NonNullable<ReturnType<typeof comparePair>> }[] = [];
    for (const [i, p] of result.pairs.entries()) {
      if (i > 0 && i % 2000 === 0) await yieldToEventLoop();
      if (p.second >= index.size) continue;
      const pair = comparePair(live, p.first, p.second, { maxDifferences: input.maxDifferences, minEqualMarkers: input.minEqualMarkers });
      if (pair) checked.push({ first: index.idAt(pair.first), second: index.idAt(pair.second), pair });
    }
    const ids = [...new Set(checked.flatMap((c) => [c.first, c.second]))];
    const rows = new Map<string, SelfComparisonProfile & { organizationId: string; status: string }>();
    for (let i = 0; i < ids.length; i += LOOKUP_CHUNK) {
      const found = await this.deps.db
        .select({ id: profiles.id, sampleName: profiles.profileId, caseId: profiles.caseId, caseNumber: cases.caseNumber, sampleType: profiles.sampleType, organizationId: profiles.organizationId, status: profiles.status })
        .from(profiles)
        .innerJoin(cases, eq(cases.id, profiles.caseId))
        .where(inArray(profiles.id, ids.slice(i, i + LOOKUP_CHUNK)));
      for (const r of found) rows.set(r.id, r);
    }
    const listable = (id: string) => {
      const r = rows.get(id);
      return r !== undefined && r.status === 'approved' && (input.scope === 'all' || r.organizationId === input.scope);
    };
    const shown = ({ id, sampleName, caseId, caseNumber, sampleType }: SelfComparisonProfile): SelfComparisonProfile => ({ id, sampleName, caseId, caseNumber, sampleType });
    return checked
      .filter((c) => listable(c.first) && listable(c.second))
      .map(({ first, second, pair }) => ({
        kind: pair.kind,
        equalMarkers: pair.equalMarkers,
        first: shown(rows.get(first)!),
        second: shown(rows.get(second)!),
        differences: pair.differences.map((d) => ({ marker: d.marker, first: d.first ? [...d.first] : null, second: d.second ? [...d.second] : null })),
      }))
      .sort((x, y) => x.differences.length - y.differences.length || y.equalMarkers - x.equalMarkers || x.first.caseNumber.localeCompare(y.first.caseNumber) || x.first.sampleName.localeCompare(y.first.sampleName));
  }
}

/** The report as CSV rows (header first): one row per pair, the differing markers with both genotypes. */
export function selfComparisonCsvRows(pairs: readonly SelfComparisonPair[]): string[][] {
  const genotype = (g: readonly string[] | null) => (g ? g.join(',') : 'not typed');
  return [
    ['Kind', 'Case 1', 'Sample 1', 'Sample type 1', 'Case 2', 'Sample 2', 'Sample type 2', 'Equal markers', 'Differences', 'Differing markers'],
    ...pairs.map((p) => [
      p.kind === 'duplicate' ? 'Duplicate' : 'Near-duplicate',
      p.first.caseNumber,
      p.first.sampleName,
      p.first.sampleType,
      p.second.caseNumber,
      p.second.sampleName,
      p.second.sampleType,
      String(p.equalMarkers),
      String(p.differences.length),
      p.differences.map((d) => `${d.marker}: ${genotype(d.first)} / ${genotype(d.second)}`).join('; '),
    ]),
  ];
}
