import { randomUUID } from 'node:crypto';
import { MessageChannel } from 'node:worker_threads';
import type { ContributorSearchJob, ContributorSearchJobModel } from '../../core/schemas/continuous';
import type { Clock } from '../clock';
import { freeParameters, markBest, planContributorSearch, type PlannedModel } from '../genetics/continuous/contributor-search';
import { continuousCase, type ContinuousRequest } from '../genetics/continuous/continuous-request';
import type { ModelSwitches } from '../genetics/continuous/continuous-types';
import { Conflict, NotFound } from '../errors';
import type { ContributorSearchProgress, ContributorSearchTask, SearchModelOutcome } from './contributor-search-worker';
import { workerPool } from './worker-pool';

// The number-of-contributors search as a background job (issue 31: "the NoC search over 1..4: ≤ 30 s, with progress
// and cancel"). The models are fitted one after another on a worker thread by the calculator's own search
// (fitPlannedModels: the same plan, bounds and starts, a large model from the optimum of one contributor fewer), which
// says over a port which model it starts and what each gave; cancel aborts the task, which terminates the worker thread
// mid-fit, and keeps the models fitted so far. A job is a calculation that stores nothing (like POST continuous-lr): it
// lives in this process's memory, is read by the user who started it only, and goes after RETAIN_MS or when MAX_JOBS
// newer ones push it out.

/** The worker file, named in a constant (see server/jobs/worker-pool.ts). */
const WORKER_FILE = './contributor-search-worker.ts';
const worker = new URL(WORKER_FILE, import.meta.url);

/** Jobs kept at most; the oldest finished ones go first. */
const MAX_JOBS = 50;
/** A finished job is kept this long. */
const RETAIN_MS = 60 * 60_000;

interface JobRecord {
  owner: string;
  view: ContributorSearchJob;
  controller: AbortController;
  finished: Promise<void>;
}

const NOT_FOUND = 'No number-of-contributors search with this id was started by you on this server (a search is kept for an hour). Start one.';

const emptyFigures = { logLikelihoodHp: null, logLikelihoodHd: null, aic: null, bic: null, log10Lr: null, best: false, note: null, fittedHp: null, fittedHd: null, elapsedMs: null };

export class ContributorSearchJobs {
  private readonly jobs = new Map<string, JobRecord>();

  constructor(private readonly deps: { clock: Clock; onError(err: unknown, message: string): void }) {}

  /**
   * Starts a search of `range` × `models` for `owner`: plans it on this thread (a refusal of the whole case, such as
   * fixed parameters, is thrown as a ContinuousModelError), lists refused models with their reason, fits the rest on
   * a worker. One running search per user: a second is refused (409).
   */
  start(owner: string, request: ContinuousRequest, range: readonly [number, number], models: readonly ModelSwitches[]): ContributorSearchJob {
    for (const r of this.jobs.values()) if (r.owner === owner && r.view.state === 'running') throw new Conflict('A number-of-contributors search of yours is already running: wait for it, or cancel it first.');
    // Contributor count first, then the models in the order given (EuroForMix's table), each refused with its reason or fitted.
    const planned = planContributorSearch(continuousCase(request), range, models);
    const view: ContributorSearchJob = {
      id: randomUUID(),
      state: 'running',
      startedAt: this.deps.clock.now().toISOString(),
      finishedAt: null,
      elapsedMs: null,
      modelsTotal: planned.filter((p) => !p.refusal).length,
      modelsDone: 0,
      models: planned.map((p): ContributorSearchJobModel => ({
        contributors: p.contributors,
        model: { ...p.model },
        parameters: freeParameters(p.contributors, p.model),
        jointGenotypes: p.jointGenotypes,
        state: p.refusal ? 'refused' : 'waiting',
        reason: p.refusal,
        ...emptyFigures,
      })),
      message: null,
    };
    const controller = new AbortController();
    const record: JobRecord = { owner, view, controller, finished: Promise.resolve() };
    this.prune();
    this.jobs.set(view.id, record);
    const started = performance.now();
    record.finished = this.run(record, request, planned)
      .then(() => {
        markBest(view.models.filter((m) => m.state === 'fitted'));
        const refused = view.models.filter((m) => m.state === 'refused').length;
        this.finish(view, started, 'done', refused > 0 ? `${refused} model(s) not fitted: see each one's reason.` : null);
      })
      .catch((err: unknown) => {
        const cancelled = controller.signal.aborted;
        for (const m of view.models) if (m.state === 'waiting' || m.state === 'fitting') m.state = 'cancelled';
        this.finish(view, started, cancelled ? 'cancelled' : 'failed', cancelled ? `Cancelled after ${view.modelsDone} of ${view.modelsTotal} models: those fitted are listed, none is marked best.` : 'The search failed; try again. The server log has the details.');
        if (!cancelled) this.deps.onError(err, 'number-of-contributors search failed');
      });
    return structuredClone(view);
  }

  /** The job as it stands; 404 for another user's job or an unknown id. */
  get(owner: string, id: string): ContributorSearchJob {
    return structuredClone(this.record(owner, id).view);
  }

  /** Stops a running job (its worker terminated); 409 when it has finished. */
  cancel(owner: string, id: string): ContributorSearchJob {
    const record = this.record(owner, id);
    if (record.view.state !== 'running') throw new Conflict(`The search has ${record.view.state === 'done' ? 'finished' : `been ${record.view.state}`}: there is nothing to cancel.`);
    record.controller.abort();
    return structuredClone(record.view);
  }

  /** Resolves when every job has settled (tests, shutdown). */
  async idle(): Promise<void> {
    await Promise.all([...this.jobs.values()].map((r) => r.finished));
  }

  /** Cancels every running job (server shutdown). */
  async close(): Promise<void> {
    for (const r of this.jobs.values()) if (r.view.state === 'running') r.controller.abort();
    await this.idle();
  }

  private record(owner: string, id: string): JobRecord {
    const record = this.jobs.get(id);
    // Another user's job is not named as such: it does not exist for them.
    if (!record || record.owner !== owner) throw new NotFound(NOT_FOUND);
    return record;
  }

  private finish(view: ContributorSearchJob, started: number, state: ContributorSearchJob['state'], message: string | null): void {
    Object.assign(view, { state, message, finishedAt: this.deps.clock.now().toISOString(), elapsedMs: Math.round(performance.now() - started) });
  }

  /** Forgets finished jobs older than RETAIN_MS, and the oldest finished ones beyond MAX_JOBS. */
  private prune(): void {
    const now = this.deps.clock.now().getTime();
    const finished = [...this.jobs.values()].filter((r) => r.view.state !== 'running');
    for (const r of finished) if (now - Date.parse(r.view.finishedAt!) > RETAIN_MS) this.jobs.delete(r.view.id);
    for (const r of finished) if (this.jobs.size >= MAX_JOBS) this.jobs.delete(r.view.id);
  }

  private apply(view: ContributorSearchJob, progress: ContributorSearchProgress): void {
    if ('fitting' in progress) {
      view.models[progress.fitting]!.state = 'fitting';
      return;
    }
    const { outcome } = progress;
    const m = view.models[outcome.index]!;
    if (m.state === 'fitted' || m.state === 'refused') return;
    if ('refused' in outcome) Object.assign(m, { state: 'refused', reason: outcome.refused });
    else {
      const { index: _, ...figures } = outcome;
      Object.assign(m, { state: 'fitted', ...figures });
    }
    view.modelsDone++;
  }

  private async run(record: JobRecord, request: ContinuousRequest, planned: PlannedModel[]): Promise<void> {
    const { view, controller } = record;
    if (planned.every((p) => p.refusal)) return;
    const { port1, port2 } = new MessageChannel();
    port1.on('message', (p: ContributorSearchProgress) => this.apply(view, p));
    const task: ContributorSearchTask = { request, planned, port: port2 };
    try {
      const outcomes = (await workerPool(worker).run(task, { signal: controller.signal, transferList: [port2] })) as SearchModelOutcome[];
      // The answer is the record: a progress message may still be on its way.
      for (const outcome of outcomes) this.apply(view, { outcome });
    } finally {
      port1.close();
    }
  }
}
