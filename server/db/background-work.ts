import { AsyncLocalStorage } from 'node:async_hooks';

const marked = new AsyncLocalStorage<true>();

/**
 * Runs `work` (and everything it awaits) as background work: on PGlite its statements and transactions
 * give the one connection to requests first (connection-turns.ts). PostgreSQL has a pool; nothing changes there.
 */
export function inBackground<T>(work: () => Promise<T>): Promise<T> {
  return marked.run(true, work);
}

/** Whether the caller runs inside inBackground. */
export function isBackgroundWork(): boolean {
  return marked.getStore() === true;
}
