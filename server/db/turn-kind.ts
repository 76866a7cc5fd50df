import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Whose turn a statement takes on PGlite's one connection (connection-turns.ts): a health probe's, which
 * goes next whatever waits; a request's (anything not marked); or background work such as an import's batches.
 */
export type TurnKind = 'probe' | 'request' | 'background';

const marked = new AsyncLocalStorage<TurnKind>();

/**
 * Runs `work` (and everything it awaits) as background work: on PGlite its statements and transactions
 * give the one connection to requests first. PostgreSQL has a pool; nothing changes there.
 */
export function inBackground<T>(work: () => Promise<T>): Promise<T> {
  return marked.run('background', work);
}

/**
 * Runs `work` as a health probe: on PGlite its statement takes the next turn, ahead of queued requests and
 * batches, or goes between the statements of the background transaction under way (transaction-lane.ts), so
 * /api/health waits for the statement under way only.
 */
export function asProbe<T>(work: () => Promise<T>): Promise<T> {
  return marked.run('probe', work);
}

/** The kind of turn the caller's statements take. */
export function turnKind(): TurnKind {
  return marked.getStore() ?? 'request';
}

/** Whether the caller runs inside inBackground. */
export function isBackgroundWork(): boolean {
  return turnKind() === 'background';
}
