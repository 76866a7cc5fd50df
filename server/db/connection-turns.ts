import { setImmediate as nextTurn } from 'node:timers/promises';
import type { TurnKind } from './turn-kind';

/** How long background work waits at most while requests keep the connection busy (it must still finish). */
export const BACKGROUND_MAX_WAIT_MS = 1000;

/**
 * Who uses PGlite's one connection next (issue 29). A turn is one statement or one whole transaction.
 * Waiting requests always go before background work, and background work starts only once the
 * connection has stayed free for a turn of the event loop after a request's statement: a request's next
 * statement is sent from the answer's continuation, so it gets in before the next batch, and a request
 * waits behind at most the one batch under way. A FIFO lock (PGlite's own) sent each statement to the
 * back of the queue, behind the add's next batch: a page of five statements waited five batches.
 * A health probe's statement goes before all of them: /api/health then waits for the turn under way
 * only, not for every request queued while a mixture approval's hits were written.
 */
export class ConnectionTurns {
  #busy = false;
  /** The last turn was a request's: background work first lets the event loop turn once. */
  #afterRequest = false;
  #waking = false;
  readonly #probes: (() => void)[] = [];
  readonly #requests: (() => void)[] = [];
  readonly #background: { grant: () => void; since: number }[] = [];
  readonly #now: () => number;
  readonly #maxWaitMs: number;

  constructor(opts: { now?: () => number; backgroundMaxWaitMs?: number } = {}) {
    this.#now = opts.now ?? (() => performance.now());
    this.#maxWaitMs = opts.backgroundMaxWaitMs ?? BACKGROUND_MAX_WAIT_MS;
  }

  /** Runs `work` with the connection to itself, once its turn comes. */
  async run<T>(kind: TurnKind, work: () => Promise<T>): Promise<T> {
    await new Promise<void>((grant) => {
      if (kind === 'probe') this.#probes.push(grant);
      else if (kind === 'request') this.#requests.push(grant);
      else this.#background.push({ grant, since: this.#now() });
      this.#dispatch();
    });
    try {
      return await work();
    } finally {
      this.#busy = false;
      this.#afterRequest = kind === 'request';
      this.#dispatch();
    }
  }

  #dispatch(): void {
    if (this.#busy) return;
    // A probe's one short statement: it cannot hold up the batches for long, whatever waits.
    const probe = this.#probes.shift();
    if (probe) {
      this.#busy = true;
      probe();
      return;
    }
    const oldest = this.#background[0];
    // Requests without end must not stop an import for good: one overdue batch goes first.
    const overdue = oldest !== undefined && this.#now() - oldest.since >= this.#maxWaitMs;
    if (this.#requests.length > 0 && !overdue) {
      this.#busy = true;
      this.#requests.shift()!();
      return;
    }
    if (!oldest) return;
    if (this.#afterRequest && !overdue) {
      this.#wakeAfterTurn();
      return;
    }
    this.#busy = true;
    this.#background.shift();
    oldest.grant();
  }

  #wakeAfterTurn(): void {
    if (this.#waking) return;
    this.#waking = true;
    void nextTurn().then(() => {
      this.#waking = false;
      this.#afterRequest = false;
      this.#dispatch();
    });
  }
}
