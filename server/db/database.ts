import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { PgliteThread } from './pglite-thread';
import * as schema from './schema';

export type Schema = typeof schema;
/** The one database type the app uses, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Applies the committed migrations (server/db/migrations). */
  migrate(): Promise<void>;
  close(): Promise<void>;
  /**
   * PostgreSQL only (PGlite has one process): hears NOTIFY on `channel` over a connection of its own
   * until the returned stop is called; `onLost` when that connection fails (nothing is heard after it).
   */
  listen?(channel: string, onPayload: (payload: string) => void, onLost: (err: Error) => void): Promise<() => Promise<void>>;
  /** PostgreSQL only: NOTIFY `channel` with each payload (one notification each, one statement), to every process listening. */
  notify?(channel: string, ...payloads: string[]): Promise<void>;
}

const kinds = new WeakMap<object, Database['kind']>();
/** Which engine a handle opened by openPglite/openPostgres talks to (undefined for a transaction's handle). */
export const databaseKindOf = (db: Db): Database['kind'] | undefined => kinds.get(db);
/** Another handle on the database `base` opened (a TransactionScope's): it reports the same engine. */
export const shareDatabaseKind = (handle: Db, base: Db): void => void kinds.set(handle, kinds.get(base)!);

/** A channel name as a quoted identifier (ours are constants; quoting keeps LISTEN safe anyway). */
const identifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Embedded PGlite on a thread of its own; `dataDir` undefined keeps it in memory (tests). */
export async function openPglite(dataDir?: string): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const client = await PgliteThread.open(dataDir ? path.join(dataDir, 'pglite') : undefined);
  const db = drizzlePglite({ client: client.asPglite(), schema });
  kinds.set(db, 'pglite');
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    migrate: () => migratePglite(db, { migrationsFolder }),
    close: () => client.close(),
  };
}

/** PostgreSQL through a connection pool (DATABASE_URL). */
export async function openPostgres(connectionString: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max: 10 });
  // An idle connection the server ends (a restart, an administrator, a dropped database) leaves the pool
  // and the next query opens another; unheard, pg raises it as an uncaught exception that stops the process.
  pool.on('error', () => undefined);
  // Fail at start with the server's message rather than on the first request.
  await pool.query('select 1');
  const db = drizzlePg({ client: pool, schema });
  kinds.set(db, 'postgres');
  // Connections held by listen(): pool.end() waits for every checked-out client, so close() ends these first.
  const listening = new Set<() => Promise<void>>();
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    migrate: () => migratePg(db, { migrationsFolder }),
    close: async () => {
      await Promise.all([...listening].map((stop) => stop()));
      await pool.end();
    },
    listen: async (channel, onPayload, onLost) => {
      const client = await pool.connect();
      let done = false;
      const onNotification = (message: pg.Notification) => {
        if (message.channel === channel && message.payload !== undefined) onPayload(message.payload);
      };
      const onError = (err: Error) => {
        if (done) return;
        done = true;
        listening.delete(stop);
        client.release(err);
        onLost(err);
      };
      const stop = async () => {
        if (done) return;
        done = true;
        listening.delete(stop);
        client.off('notification', onNotification);
        await client.query(`UNLISTEN ${identifier(channel)}`).catch(() => undefined);
        // Back to the pool idle (the pool now hears its errors), so pool.end() can end it.
        client.release();
        client.off('error', onError);
      };
      listening.add(stop);
      client.on('notification', onNotification);
      client.on('error', onError);
      try {
        await client.query(`LISTEN ${identifier(channel)}`);
      } catch (err) {
        await stop();
        throw err;
      }
      return stop;
    },
    notify: async (channel, ...payloads) => {
      await pool.query('select pg_notify($1, p) from unnest($2::text[]) as p', [channel, payloads]);
    },
  };
}

/** PostgreSQL when a URL is configured, otherwise PGlite under DATA_DIR. */
export function openDatabase(opts: { databaseUrl: string | undefined; dataDir: string }): Promise<Database> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl) : openPglite(opts.dataDir);
}
