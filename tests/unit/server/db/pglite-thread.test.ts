import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openPglite, type Database } from '../../../../server/db/database';
import { pgErrorCode, UNIQUE_VIOLATION } from '../../../../server/db/errors';
import { asProbe, inBackground } from '../../../../server/db/turn-kind';

const opened: Database[] = [];
async function open(dataDir?: string): Promise<Database> {
  const database = await openPglite(dataDir);
  opened.push(database);
  return database;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((d) => d.close()));
});

const rows = <T>(result: unknown) => (result as { rows: T[] }).rows;

describe('PGlite on its own thread', () => {
  it('keeps the server answering while a long statement runs (it used to run on the request thread)', async () => {
    const { db } = await open();
    let turns = 0;
    let running = true;
    const count = () => {
      turns += 1;
      if (running) setImmediate(count);
    };
    setImmediate(count);
    const result = await db.execute(sql`select count(*)::int as n from generate_series(1, 3000000)`);
    running = false;
    expect(rows<{ n: number }>(result)[0]!.n).toBe(3_000_000);
    // On the request thread the statement ran as one block: no turn of the event loop until it was done.
    expect(turns).toBeGreaterThan(20);
  });

  it('gives PostgreSQL’s error code and detail back, so a duplicate name still reads "already exists"', async () => {
    const { db } = await open();
    await db.execute(sql`create table t (name text primary key)`);
    await db.execute(sql`insert into t values ('K48')`);
    const err = await db.execute(sql`insert into t values ('K48')`).catch((e: unknown) => e);
    expect(pgErrorCode(err)).toBe(UNIQUE_VIOLATION);
    expect(String((err as { cause?: { detail?: string } }).cause?.detail)).toContain('(name)=(K48) already exists');
  });

  it('commits a transaction whose work succeeds and leaves nothing of one that fails', async () => {
    const { db } = await open();
    await db.execute(sql`create table t (name text primary key)`);
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into t values ('kept')`);
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`insert into t values ('dropped')`);
        throw new Error('the batch failed');
      }),
    ).rejects.toThrow('the batch failed');
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`insert into t values ('dropped too')`);
        await tx.execute(sql`insert into t values ('kept')`);
      }),
    ).rejects.toThrow();
    expect(rows<{ name: string }>(await db.execute(sql`select name from t order by name`)).map((r) => r.name)).toEqual(['kept']);
  });

  it('runs statements from outside a transaction after it, not inside it', async () => {
    const { db } = await open();
    await db.execute(sql`create table t (name text)`);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const tx = db.transaction(async (t) => {
      await t.execute(sql`insert into t values ('in the transaction')`);
      await held;
      throw new Error('rolled back');
    });
    const outside = db.execute(sql`select count(*)::int as n from t`);
    setTimeout(release, 50);
    await expect(tx).rejects.toThrow('rolled back');
    expect(rows<{ n: number }>(await outside)[0]!.n).toBe(0);
  });

  it('answers a health probe between the statements of an import batch, not only after the whole batch (issue 29)', async () => {
    const { db } = await open();
    await db.execute(sql`create table t (name text)`);
    const seen: string[] = [];
    await inBackground(() =>
      db.transaction(async (tx) => {
        await tx.execute(sql`insert into t values ('first of the batch')`);
        const probe = asProbe(async () => await db.execute(sql`select 1 as ok`)).then(() => seen.push('probe answered'));
        await tx.execute(sql`insert into t values ('second of the batch')`);
        seen.push('batch went on');
        await probe;
      }),
    );
    // Before, the probe took the connection's next turn: after the batch had committed.
    expect(seen).toEqual(['probe answered', 'batch went on']);
    expect(rows<{ n: number }>(await db.execute(sql`select count(*)::int as n from t`))[0]!.n).toBe(2);
  });

  it('sends a probe between a batch\'s statements to the database thread as one message, its savepoint included', async () => {
    const { db } = await open();
    await db.execute(sql`create table t (name text)`);
    const sent = vi.spyOn(Worker.prototype, 'postMessage');
    try {
      let during: string[] = [];
      await inBackground(() =>
        db.transaction(async (tx) => {
          await tx.execute(sql`insert into t values ('first of the batch')`);
          sent.mockClear();
          await asProbe(async () => await db.execute(sql`select 1 as ok`));
          during = sent.mock.calls.map(([message]) => (message as { sql?: string }).sql ?? '');
        }),
      );
      // Savepoint, statement and release each went through the request thread: a busy event loop delayed each.
      expect(during).toEqual(['select 1 as ok']);
    } finally {
      sent.mockRestore();
    }
  });

  it('opens new WAL segments without writing 16 MB of zeros first (a commit that did held a probe 40-58 ms)', async () => {
    const { db } = await open();
    expect(rows<{ wal_init_zero: string }>(await db.execute(sql`show wal_init_zero`))[0]!.wal_init_zero).toBe('off');
  });

  it('keeps the batch whole when a probe between its statements fails, and other requests wait for the batch', async () => {
    const { db } = await open();
    await db.execute(sql`create table t (name text)`);
    const order: string[] = [];
    let request: Promise<unknown> | undefined;
    await inBackground(() =>
      db.transaction(async (tx) => {
        await tx.execute(sql`insert into t values ('first of the batch')`);
        await expect(asProbe(async () => await db.execute(sql`select * from no_such_table`))).rejects.toThrow();
        request = db.execute(sql`select count(*)::int as n from t`).then((r) => (order.push('request'), r));
        await tx.execute(sql`insert into t values ('second of the batch')`);
        order.push('batch');
      }),
    );
    // A request is no probe: it still sees the batch committed whole, after it.
    expect(rows<{ n: number }>(await request)[0]!.n).toBe(2);
    expect(order).toEqual(['batch', 'request']);
  });

  it('keeps what was written in its data folder after a close', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'locus-pglite-'));
    try {
      const first = await openPglite(dir);
      await first.db.execute(sql`create table t (name text)`);
      await first.db.execute(sql`insert into t values ('K48')`);
      await first.close();
      const again = await open(dir);
      expect(rows<{ name: string }>(await again.db.execute(sql`select name from t`))).toEqual([{ name: 'K48' }]);
    } finally {
      await Promise.all(opened.splice(0).map((d) => d.close()));
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads every row of a table that grows and shrinks in its data folder (file sizes kept between lseeks)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'locus-pglite-'));
    try {
      const { db } = await open(dir);
      const count = async () => rows<{ n: number }>(await db.execute(sql`select count(*)::int as n from t`))[0]!.n;
      // The size PostgreSQL sees, and the file's own on disk.
      const sizes = async () => {
        const [row] = rows<{ size: number; file: string }>(await db.execute(sql`select pg_relation_size('t')::int as size, pg_relation_filepath('t') as file`));
        return { seen: row!.size, onDisk: statSync(path.join(dir, 'pglite', row!.file)).size };
      };
      await db.execute(sql`create table t (n int, pad text)`);
      expect(await count()).toBe(0);
      // Grown by writes after its size was read: 20,000 rows over a few hundred pages.
      await db.execute(sql`insert into t select g, repeat('x', 100) from generate_series(1, 20000) g`);
      expect(await count()).toBe(20_000);
      const grown = await sizes();
      expect(grown.seen).toBeGreaterThan(100 * 8192);
      expect(grown.seen).toBe(grown.onDisk);
      // Shrunk by a truncation (VACUUM gives the emptied pages back), then grown again.
      await db.execute(sql`delete from t`);
      await db.execute(sql`vacuum t`);
      expect(await sizes()).toEqual({ seen: 0, onDisk: 0 });
      await db.execute(sql`insert into t select g, 'y' from generate_series(1, 10) g`);
      expect(await count()).toBe(10);
      expect(rows<{ s: number }>(await db.execute(sql`select sum(n)::int as s from t`))[0]!.s).toBe(55);
    } finally {
      await Promise.all(opened.splice(0).map((d) => d.close()));
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers with a clear error once closed', async () => {
    const database = await openPglite();
    await database.close();
    const err = await database.db.execute(sql`select 1`).catch((e: unknown) => e);
    expect(String((err as { cause?: Error }).cause?.message)).toMatch(/database thread stopped/);
  });
});
