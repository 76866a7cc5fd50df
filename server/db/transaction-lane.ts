/**
 * The statements of one open transaction on PGlite's one connection, one at a time, with room for a health
 * probe's statement between two of them (issue 29). A background transaction (an import's batch: eight
 * statements and the audit hashing between them, 100-250 ms) held a probe for all of it, as its turn;
 * between its statements the probe waits for the one under way only. PGlite's thread runs the probe's
 * statement in a savepoint (pglite-worker.mjs), so even a failing probe leaves the batch as it was; it sees
 * what any statement outside would (the one connection commits nothing meanwhile), apart from the batch's
 * own rows, which the probes' reads (`select 1`, the upload backlog) never touch.
 */
export class TransactionLane {
  #tail: Promise<unknown> = Promise.resolve();
  #failed = false;

  /** Runs one of the transaction's own statements after whatever is under way; a failure closes the lane to probes. */
  statement<T>(run: () => Promise<T>): Promise<T> {
    return this.#queue(run).catch((err: unknown) => {
      // An aborted transaction answers nothing but errors until it rolls back: no probe goes in after it.
      this.#failed = true;
      throw err;
    });
  }

  /** Whether a probe may go in: the transaction's statements have all succeeded so far. */
  get open(): boolean {
    return !this.#failed;
  }

  /** A probe's statement (sent in a savepoint) between the transaction's statements; its failure leaves the lane open. */
  probe<T>(run: () => Promise<T>): Promise<T> {
    return this.#queue(run);
  }

  /** Resolves once nothing is under way (before the transaction ends). */
  async settled(): Promise<void> {
    await this.#tail.catch(() => undefined);
  }

  #queue<T>(run: () => Promise<T>): Promise<T> {
    const next = this.#tail.catch(() => undefined).then(run);
    this.#tail = next;
    return next;
  }
}
