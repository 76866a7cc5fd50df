import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Lets the event loop turn. PGlite answers queries without real I/O, so a loop of awaited queries runs
 * as one chain of microtasks and starves sockets and timers; long jobs call this between statements.
 * Node's own setImmediate, imported: a test environment's global (jsdom, fake timers) may be slower or frozen.
 */
export function yieldToEventLoop(): Promise<void> {
  return nextTurn();
}
