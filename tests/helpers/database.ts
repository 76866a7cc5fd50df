import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPglite, openPostgres, type Database } from '../../server/db/database';

/** The PostgreSQL server tests also run against when one is reachable (CI starts one). */
export const TEST_POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export async function postgresReachable(url = TEST_POSTGRES_URL): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/** A fresh migrated in-memory PGlite. */
export async function freshPglite(): Promise<Database> {
  const database = await openPglite();
  await database.migrate();
  return database;
}

/**
 * A fresh PostgreSQL database of its own, dropped again on close; `url` reaches it (a second process's connection).
 * Migrated to the latest, or by `migrate` (a migration test stops at an earlier one).
 */
export async function freshPostgres(url = TEST_POSTGRES_URL, migrate: (database: Database) => Promise<void> = (d) => d.migrate()): Promise<Database & { url: string }> {
  const name = `locus_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openPostgres(target.toString());
  await migrate(database);
  return {
    ...database,
    url: target.toString(),
    close: async () => {
      await database.close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      // A pool's end() resolves before its backends exit: let them go before forcing out whatever is left.
      for (let i = 0; i < 50; i++) {
        const { rows } = await cleanup.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
        if (rows[0].n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/** The database engines a data-layer test runs on: PGlite always, PostgreSQL when reachable. */
export async function databaseEngines(): Promise<{ name: string; open: () => Promise<Database> }[]> {
  const engines = [{ name: 'PGlite', open: freshPglite }];
  if (await postgresReachable()) engines.push({ name: 'PostgreSQL', open: () => freshPostgres() });
  return engines;
}
