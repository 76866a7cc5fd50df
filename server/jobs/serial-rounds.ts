/** A background task run in rounds: on demand, and every so often until stopped. */
export interface SerialRounds {
  /** Runs a round after any under way; resolves with what it returned. */
  run(): Promise<number>;
  /** Runs a round now and every `intervalMs` in the background (the timer keeps no process alive). */
  start(intervalMs: number): void;
  /** Stops the timer and waits for the round under way. */
  stop(): Promise<void>;
}

/**
 * One round at a time: a call during a round waits for it, then runs again for what arrived meanwhile. The outboxes'
 * senders (e-mail, uploads to the upper instance) both deliver this way; a background round's failure goes to `onError`.
 */
export function serialRounds(round: () => Promise<number>, onError?: (err: unknown) => void): SerialRounds {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  const run = (): Promise<number> => {
    const next = (running ?? Promise.resolve(0)).catch(() => 0).then(round);
    running = next;
    return next;
  };
  const background = () => void run().catch((err: unknown) => onError?.(err));
  return {
    run,
    start(intervalMs) {
      if (timer) return;
      background();
      timer = setInterval(background, intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running?.catch(() => 0);
    },
  };
}
