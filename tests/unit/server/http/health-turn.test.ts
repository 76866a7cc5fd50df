/**
 * Issue 29: on PGlite's one connection, GET /api/health waits for the statement under way only — not for the
 * requests queued behind it (a mixture approval's hit writes, a page's statements) nor for an import's batches.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inBackground } from '../../../../server/db/turn-kind';
import { createTestApp, type TestApp } from '../../../helpers/app';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => {
  // The last test closed the database already.
  await t.close().catch(() => undefined);
});

/** A statement long enough to still hold the connection while the others queue behind it. */
const LONG = sql`select count(*) from generate_series(1, 500000)`;
const SHORT = sql`select 1`;

describe('GET /api/health on PGlite', () => {
  it('answers before the requests and batches queued behind the statement under way', async () => {
    const db = t.database.db;
    const answered: string[] = [];
    const note = (name: string) => () => void answered.push(name);
    const running = db.execute(LONG).then(note('long statement'));
    const requests = [1, 2, 3].map((i) => db.execute(SHORT).then(note(`request ${i}`)));
    const batches = inBackground(async () => {
      for (let i = 1; i <= 3; i++) await db.execute(SHORT).then(note(`batch ${i}`));
    });
    const health = t.app.inject({ method: 'GET', url: '/api/health' }).then((res) => {
      answered.push('health');
      return res;
    });
    await Promise.all([running, ...requests, batches, health]);
    expect((await health).json()).toMatchObject({ status: 'ok', database: 'pglite' });
    // Before: health's select 1 and its three backlog counts each queued behind the requests, so it answered last but the batches.
    expect(answered.indexOf('health')).toBeLessThan(answered.indexOf('request 2'));
  }, 60_000);

  it('still says "Database unavailable" when the database does not answer', async () => {
    await t.database.close();
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ error: 'Database unavailable' });
  });
});
