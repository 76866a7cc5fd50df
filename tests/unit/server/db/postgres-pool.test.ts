import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { freshPostgres, postgresReachable } from '../../../helpers/database';

const reachable = await postgresReachable();

describe('the PostgreSQL pool', () => {
  it('runs where CI provides PostgreSQL', () => {
    if (process.env.CI) expect(reachable).toBe(true);
  });

  // Without a listener on the pool, pg raised the ended idle connection as an uncaught exception: the
  // server stopped (and Vitest reports it as an unhandled error of this file).
  it.runIf(reachable)('outlives an idle connection the server ends (a restart, an administrator) and answers the next query', async () => {
    const database = await freshPostgres();
    try {
      await database.db.execute(sql`select 1`);
      const admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
      const ended = await admin.query('select count(*)::int as n from (select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()) as t');
      await admin.end();
      expect(ended.rows[0].n).toBeGreaterThan(0);
      // The pool hears of it once the socket closes.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const after = (await database.db.execute(sql`select 2 as n`)) as unknown as { rows: { n: number }[] };
      expect(after.rows[0]!.n).toBe(2);
    } finally {
      await database.close();
    }
  });
});
