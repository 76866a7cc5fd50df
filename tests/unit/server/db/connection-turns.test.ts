import { describe, expect, it } from 'vitest';
import { ConnectionTurns } from '../../../../server/db/connection-turns';

/** A turn that lasts until `end` is called; `started` resolves once it has the connection. */
function heldTurn(turns: ConnectionTurns, kind: 'request' | 'background', log: string[], name: string) {
  let end!: () => void;
  let started!: () => void;
  const startedP = new Promise<void>((r) => (started = r));
  const done = turns.run(kind, async () => {
    log.push(name);
    started();
    await new Promise<void>((r) => (end = r));
  });
  return { started: startedP, end: () => end(), done };
}

/** A request of `statements` statements, each sent when the previous one answers (as a route's awaits do). */
async function request(turns: ConnectionTurns, log: string[], name: string, statements: number) {
  for (let i = 1; i <= statements; i++) await turns.run('request', async () => void log.push(`${name}.${i}`));
}

/** Background work of `batches` turns, each asked for as soon as the previous one ends (an add's loop). */
async function batches(turns: ConnectionTurns, log: string[], count: number, during?: (batch: number) => void) {
  for (let i = 1; i <= count; i++)
    await turns.run('background', async () => {
      log.push(`batch ${i}`);
      during?.(i);
      await new Promise((r) => setTimeout(r, 5));
    });
}

describe('turns on the one connection', () => {
  it('runs every statement of a request that came during a batch before the next batch, not one per batch', async () => {
    const turns = new ConnectionTurns();
    const log: string[] = [];
    let page: Promise<void> | undefined;
    await batches(turns, log, 4, (i) => {
      if (i === 1) page = request(turns, log, 'page', 3);
    });
    await page;
    // A FIFO lock gave: batch 1, page.1, batch 2, page.2, batch 3, page.3, batch 4.
    expect(log).toEqual(['batch 1', 'page.1', 'page.2', 'page.3', 'batch 2', 'batch 3', 'batch 4']);
  });

  it('keeps requests in the order they asked, and lets the batches run when no request waits', async () => {
    const turns = new ConnectionTurns();
    const log: string[] = [];
    const first = heldTurn(turns, 'request', log, 'first');
    await first.started;
    const add = batches(turns, log, 2);
    const second = request(turns, log, 'second', 1);
    const third = request(turns, log, 'third', 1);
    first.end();
    await Promise.all([first.done, add, second, third]);
    expect(log).toEqual(['first', 'second.1', 'third.1', 'batch 1', 'batch 2']);
  });

  it('gives a batch that waited its longest the next turn, even while requests keep coming', async () => {
    let now = 0;
    const turns = new ConnectionTurns({ now: () => now, backgroundMaxWaitMs: 1000 });
    const log: string[] = [];
    const busy = heldTurn(turns, 'request', log, 'busy');
    await busy.started;
    const add = batches(turns, log, 1);
    const next = request(turns, log, 'next', 1);
    now = 1000;
    busy.end();
    await Promise.all([busy.done, add, next]);
    expect(log).toEqual(['busy', 'batch 1', 'next.1']);
  });

  it('gives a health probe the next turn, ahead of queued requests and of an overdue batch, never inside the turn under way', async () => {
    let now = 0;
    const turns = new ConnectionTurns({ now: () => now, backgroundMaxWaitMs: 1000 });
    const log: string[] = [];
    const busy = heldTurn(turns, 'request', log, 'busy');
    await busy.started;
    const add = batches(turns, log, 2);
    const waiting = [request(turns, log, 'approve', 1), request(turns, log, 'hits', 1)];
    now = 1000;
    const probe = turns.run('probe', async () => void log.push('health'));
    // Still the busy turn's: the probe waits for it, it does not run inside it.
    await new Promise((r) => setImmediate(r));
    expect(log).toEqual(['busy']);
    busy.end();
    await Promise.all([busy.done, add, probe, ...waiting]);
    expect(log.slice(0, 2)).toEqual(['busy', 'health']);
  });

  it('lets the next turn go when a turn fails', async () => {
    const turns = new ConnectionTurns();
    await expect(turns.run('request', () => Promise.reject(new Error('syntax error')))).rejects.toThrow('syntax error');
    await expect(turns.run('background', async () => 'ran')).resolves.toBe('ran');
  });
});
