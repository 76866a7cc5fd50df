import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Lets the event loop turn: a long loop of JavaScript work (hashing an import's thousands of audit rows)
 * calls it between steps so requests and timers get in.
 * Node's own setImmediate, imported: a test environment's global (jsdom, fake timers) may be slower or frozen.
 */
export function yieldToEventLoop(): Promise<void> {
  return nextTurn();
}
