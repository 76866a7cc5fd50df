/**
 * Issue 32, the upload outbox's backlog in GET /api/health (and the delivery screen): exact through every change of
 * an entry, and read without counting the entries, so a probe costs the same with 20 entries waiting as with 100,000
 * (it counted them three times per probe: 406 ms at 100,000 in the replication bench).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { OutboxBacklog } from '../../../../core/schemas/network-delivery';
import { systemClock } from '../../../../server/clock';
import type { Database, Db } from '../../../../server/db/database';
import { compactBacklogCounts, outboxBacklog } from '../../../../server/network/upload-outbox';
import { claim } from '../../../../server/network/upload-sender';
import { createTestApp, type TestApp } from '../../../helpers/app';
import { freshPostgres, postgresReachable } from '../../../helpers/database';

let t: TestApp;
let db: Db;

beforeAll(async () => {
  t = await createTestApp({ wakeUploadSender: false });
  db = t.database.db;
}, 60_000);
afterAll(() => t.close());
beforeEach(async () => {
  await db.execute(sql`delete from upload_outbox`);
});

const rows = async <T>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;

const health = async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/health' });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { uploads: OutboxBacklog }).uploads;
};

/** `n` entries in one statement, as a bulk approval or the bench's seeding writes them; `state` sets their columns. */
const add = (n: number, state: 'waiting' | 'retrying' | 'failed' | 'delivered' = 'waiting', createdAt = sql`now()`) =>
  db.execute(sql`
    insert into upload_outbox (idempotency_key, action, profile_id, organization_id, laboratory, specimen_id, created_at, last_error, refused_at, delivered_at)
    select gen_random_uuid()::text, 'upload', gen_random_uuid(), gen_random_uuid(), 'Lab', 'S' || g, ${createdAt},
      case when ${state} in ('retrying', 'failed') then 'it failed' end,
      case when ${state} = 'failed' then now() end,
      case when ${state} = 'delivered' then now() end
    from generate_series(1, ${n}) g`);

/** The backlog counted entry by entry (the figures the maintained counts must equal). */
async function counted(): Promise<Omit<OutboxBacklog, 'oldestWaitingSeconds'>> {
  const [row] = await rows<{ waiting: number; retrying: number; failed: number }>(sql`
    select count(*) filter (where refused_at is null)::int as waiting,
      count(*) filter (where refused_at is null and last_error is not null)::int as retrying,
      count(*) filter (where refused_at is not null)::int as failed
    from upload_outbox where delivered_at is null`);
  return row!;
}

/** Rows and index entries of upload_outbox read by scans so far (PGlite: this process's own statistics). */
async function outboxRowsRead(): Promise<number> {
  await db.execute(sql`select pg_stat_force_next_flush()`);
  const [row] = await rows<{ n: number }>(sql`select (coalesce(seq_tup_read, 0) + (select coalesce(sum(idx_tup_read), 0) from pg_stat_user_indexes i where i.relid = t.relid))::int as n from pg_stat_user_tables t where relname = 'upload_outbox'`);
  return row!.n;
}

async function rowsReadByProbe(): Promise<number> {
  const before = await outboxRowsRead();
  await health();
  return (await outboxRowsRead()) - before;
}

describe('the upload backlog in GET /api/health (issue 32)', () => {
  it('reads as many of the outbox’s rows with 3,000 entries undelivered as with 20: it does not count them', async () => {
    await add(10);
    await add(5, 'retrying');
    await add(5, 'failed');
    const few = await rowsReadByProbe();
    await add(2000);
    await add(500, 'retrying');
    await add(480, 'failed');
    await add(300, 'delivered');
    const many = await rowsReadByProbe();
    expect(many).toBe(few);
    expect(await health()).toMatchObject({ waiting: 2515, retrying: 505, failed: 485 });
  });

  it('keeps the figures exact through every change of an entry, in one statement or many, committed or rolled back', async () => {
    const expectExact = async () => {
      const figures = await health();
      expect({ waiting: figures.waiting, retrying: figures.retrying, failed: figures.failed }).toEqual(await counted());
    };
    await add(40);
    await add(3, 'delivered');
    await expectExact();
    // A claim: attempts and lease only, no state changes.
    await db.execute(sql`update upload_outbox set attempts = attempts + 1, next_attempt_at = now() + interval '5 minutes' where id in (select id from upload_outbox where delivered_at is null order by id limit 25)`);
    await expectExact();
    // A failed batch: its entries keep the error (retrying); some are then refused by name (failed).
    await db.execute(sql`update upload_outbox set last_error = 'down' where id in (select id from upload_outbox where delivered_at is null order by id limit 20)`);
    await db.execute(sql`update upload_outbox set refused_at = now() where id in (select id from upload_outbox where last_error is not null order by id limit 6)`);
    await expectExact();
    // An administrator's retry of a refused entry; a delivered batch mixing waiting and retrying entries.
    await db.execute(sql`update upload_outbox set refused_at = null, next_attempt_at = null where id = (select id from upload_outbox where refused_at is not null order by id limit 1)`);
    await db.execute(sql`update upload_outbox set delivered_at = now(), last_error = null where id in (select id from upload_outbox where delivered_at is null and refused_at is null order by id desc limit 30)`);
    await expectExact();
    // A later change supersedes the refused entries (queueUpload deletes them).
    await db.execute(sql`delete from upload_outbox where refused_at is not null and id in (select id from upload_outbox where refused_at is not null order by id limit 2)`);
    await expectExact();
    // A transaction that rolls back leaves the figures as they were.
    const before = await health();
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`update upload_outbox set delivered_at = now() where delivered_at is null`);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await health()).toEqual(before);
    // Folding the counts changes no figure.
    await compactBacklogCounts(db);
    await compactBacklogCounts(db);
    await expectExact();
    expect((await rows<{ n: number }>(sql`select count(*)::int as n from upload_outbox_counts`))[0]!.n).toBeLessThanOrEqual(3);
  });

  it('reports the oldest waiting entry’s age, a refused or delivered one not counting', async () => {
    await add(1, 'failed', sql`now() - interval '3 hours'`);
    await add(1, 'delivered', sql`now() - interval '2 hours'`);
    expect((await health()).oldestWaitingSeconds).toBeNull();
    await add(1, 'retrying', sql`now() - interval '10 minutes'`);
    await add(3, 'waiting', sql`now() - interval '1 minute'`);
    const age = (await health()).oldestWaitingSeconds!;
    expect(age).toBeGreaterThanOrEqual(600);
    expect(age).toBeLessThan(660);
  });
});

describe('the upload backlog on PostgreSQL before its first ANALYZE (issue 32)', async () => {
  const reachable = await postgresReachable();
  let pgDatabase: Database & { url: string };
  beforeAll(async () => {
    if (reachable) pgDatabase = await freshPostgres();
  }, 60_000);
  afterAll(() => pgDatabase?.close());

  // Bulk approvals, or the replication bench's seeding, leave the outbox unanalyzed until autovacuum comes round:
  // PostgreSQL 15 then planned the oldest entry's min() as an aggregate over the whole partial index, so every
  // /api/health probe read every waiting entry while the sender wrote them (the bench's L answered it in up to 110 ms).
  it.runIf(reachable)('reads as many of the outbox’s index entries with 3,000 waiting as with 20', async () => {
    const pgDb = pgDatabase.db;
    const entriesRead = async () => {
      // One connection at a time (the pool hands back the idle one): its statistics flushed, then read.
      await pgDb.execute(sql`select pg_stat_force_next_flush()`);
      const { rows: [row] } = (await pgDb.execute(sql`select coalesce(sum(idx_tup_read), 0)::int as n from pg_stat_user_indexes where relname = 'upload_outbox'`)) as unknown as { rows: { n: number }[] };
      return row!.n;
    };
    const readByBacklog = async () => {
      const before = await entriesRead();
      const backlog = await outboxBacklog(pgDb, systemClock);
      return { read: (await entriesRead()) - before, backlog };
    };
    const addWaiting = (n: number) =>
      pgDb.execute(sql`
        insert into upload_outbox (idempotency_key, action, profile_id, organization_id, laboratory, specimen_id)
        select gen_random_uuid()::text, 'upload', gen_random_uuid(), gen_random_uuid(), 'Lab', 'S' || g from generate_series(1, ${n}::int) g`);
    await addWaiting(20);
    const few = await readByBacklog();
    await addWaiting(2980);
    const many = await readByBacklog();
    expect(many.backlog).toMatchObject({ waiting: 3000, retrying: 0, failed: 0 });
    expect(many.read).toBe(few.read);
  });

  // The sender's claim of a batch (500) had the same plan: every due entry read by the due-time index and sorted by id,
  // per batch, so a 100,000-entry backlog cost its database ~40,000 buffers a batch beside the health probes.
  it.runIf(reachable)('claims a batch reading as many index entries with 3,000 waiting as with 600', async () => {
    const pgDb = pgDatabase.db;
    const indexEntriesRead = async () => {
      await pgDb.execute(sql`select pg_stat_force_next_flush()`);
      return ((await pgDb.execute(sql`select coalesce(sum(idx_tup_read), 0)::int as n from pg_stat_user_indexes where relname = 'upload_outbox'`)) as unknown as { rows: { n: number }[] }).rows[0]!.n;
    };
    // A fresh outbox of n waiting entries (never analyzed), then one claim: what it read of the outbox's indexes.
    const claimFrom = async (n: number) => {
      await pgDb.execute(sql`truncate upload_outbox`);
      await pgDb.execute(sql`
        insert into upload_outbox (idempotency_key, action, profile_id, organization_id, laboratory, specimen_id)
        select gen_random_uuid()::text, 'upload', gen_random_uuid(), gen_random_uuid(), 'Lab', 'S' || g from generate_series(1, ${n}::int) g`);
      const before = await indexEntriesRead();
      const rows = await claim(pgDb, new Date());
      return { claimed: rows.length, read: (await indexEntriesRead()) - before };
    };
    const few = await claimFrom(600);
    const many = await claimFrom(3000);
    expect([few.claimed, many.claimed]).toEqual([500, 500]);
    expect(many.read).toBe(few.read);
  });
});
