// One Locus instance of a network of laboratories (issue 32) as it runs for real: `node server/server.ts` in a process
// of its own (bench/server-process.ts), on a PostgreSQL database of its own made for it and dropped after, with its own
// port. The three-instance test and the replication bench start their instances with it. Everything else is set
// through the HTTP API; the one shortcut is the administrator's personal access token, written to the database as
// Profile → Access tokens would after a browser sign-in (the embedded provider's sign-in is a browser's page).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { systemClock } from '../server/clock';
import { openPostgres, type Database } from '../server/db/database';
import { users } from '../server/db/schema';
import { createAccessToken } from '../server/identity/access-tokens';
import { ADMIN } from './scale-bench';
import { Client, LoopDelay, type LoopDelaySample, startServer } from './server-process';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface NetworkInstance {
  /** The instance's address (its PUBLIC_URL): what a lower instance names as its upper instance. */
  readonly origin: string;
  /** The process's id (it changes with a restart). */
  readonly pid: number;
  /** Its database, for what no API does (the tokens) and for a bench's bulk load; the server owns everything else. */
  readonly database: Database & { url: string };
  /** The administrator's personal access token (scope All). */
  readonly adminToken: string;
  /** The server's event-loop delays (ms) since the previous call (bench/loop-delay-probe.mjs, read from inside it). */
  loopDelay(): Promise<LoopDelaySample>;
  /** A call as the administrator (or `token`); any status but 2xx throws with the body. */
  call<T>(method: Method, url: string, body?: unknown, token?: string): Promise<T>;
  /** A personal access token for a user made through the API (the same shortcut as the administrator's). */
  tokenFor(userId: string, name: string): Promise<string>;
  /** SIGKILL: no shutdown, requests in flight cut (a crash, a power cut). */
  kill(): Promise<void>;
  /** Starts the server again on the same database and port. */
  restart(): Promise<void>;
  /** Stops the server and drops its database. */
  close(): Promise<void>;
}

/** The PostgreSQL server the instances' databases are made on (CI starts one). */
export const NETWORK_POSTGRES_URL = process.env.TEST_DATABASE_URL ?? process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function onServer(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * Starts an instance on a fresh database `<prefix>_<random>_<tag>` (the server migrates it and seeds its first start),
 * waits for its index, and gives its administrator a token. `env` adds server settings (SEARCH_THREADS, …).
 */
export async function startNetworkInstance(tag: string, opts: { prefix?: string; env?: Record<string, string>; log?: (l: string) => void } = {}): Promise<NetworkInstance> {
  const name = `${opts.prefix ?? 'netbench'}_${randomBytes(4).toString('hex')}_${tag}`.toLowerCase();
  await onServer(NETWORK_POSTGRES_URL, `create database ${name}`);
  const target = new URL(NETWORK_POSTGRES_URL);
  target.pathname = `/${name}`;
  const url = target.toString();
  const folder = mkdtempSync(path.join(tmpdir(), `locus-${tag}-`));
  const env = { ...opts.env, DATABASE_URL: url, DATA_DIR: path.join(folder, 'data') };
  const loopFile = path.join(folder, 'loop-delay.json');
  const log = opts.log ?? (() => undefined);
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let database: Database | undefined;
  let dropped = false;
  const dropAll = async () => {
    if (dropped) return;
    dropped = true;
    await server?.stop();
    await database?.close();
    await onServer(NETWORK_POSTGRES_URL, `drop database if exists ${name} with (force)`);
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    server = await startServer(env, loopFile, log);
    database = await openPostgres(url);
    const [admin] = await database.db.select().from(users).where(eq(users.email, ADMIN.email));
    if (!admin) throw new Error(`the first start made no administrator ${ADMIN.email}`);
    const tokenFor = async (userId: string, tokenName: string) => (await createAccessToken(database!.db, systemClock, userId, tokenName, 1)).token;
    const adminToken = await tokenFor(admin.id, `network instance ${tag} (administrator)`);
    const client = new Client(server.origin);
    const port = Number(new URL(server.origin).port);
    const db = database;
    let loop = server.loop;
    return {
      origin: server.origin,
      get pid() {
        return server!.child.pid!;
      },
      database: { ...db, url },
      adminToken,
      loopDelay: () => loop.sample(),
      call: async <T>(method: Method, path: string, body?: unknown, token = adminToken) => (await client.call<T>(token, method, path, body)).body,
      tokenFor,
      kill: async () => {
        const child = server!.child;
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      },
      restart: async () => {
        // The new process counts its samples from 1 again: the former process's last one must not pass for its first.
        rmSync(loopFile, { force: true });
        server = await startServer(env, loopFile, log, port);
        loop = server.loop;
      },
      close: dropAll,
    };
  } catch (err) {
    await dropAll();
    throw err;
  }
}
