import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PGlite } from '@electric-sql/pglite';
import { ConnectionTurns } from './connection-turns';
import { TransactionLane } from './transaction-lane';
import { turnKind } from './turn-kind';
import { deserializeError, type PgliteReady, type PgliteReply, type PgliteRequest } from './pglite-protocol';

// Kept in a constant: Vite rewrites `new URL('./x.ts', import.meta.url)` into an asset inside the component tests.
const WORKER_FILE = './pglite-worker.mjs';

let compiled: Promise<{ pgliteWasmModule: WebAssembly.Module; initdbWasmModule: WebAssembly.Module }> | undefined;

/**
 * PGlite's WebAssembly, compiled once per process and shared with each database thread (a thread that
 * compiles its own takes about a second more to open).
 */
function wasmModules() {
  compiled ??= (async () => {
    const dist = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const [pglite, initdb] = await Promise.all(['pglite.wasm', 'initdb.wasm'].map(async (name) => WebAssembly.compile(await readFile(path.join(dist, name)))));
    return { pgliteWasmModule: pglite!, initdbWasmModule: initdb! };
  })();
  return compiled;
}

/** What Drizzle's PGlite driver passes with a statement: the row shape and, per type OID, a parser. */
interface QueryOptions {
  rowMode?: 'array' | 'object';
  parsers?: Record<number, (value: string) => unknown>;
}

interface ThreadTransaction {
  query(sql: string, params?: unknown[], options?: QueryOptions): Promise<unknown>;
}

/** Distributes the Omit over the request kinds: each without its id. */
type Request = PgliteRequest extends infer R ? (R extends PgliteRequest ? Omit<R, 'id'> : never) : never;

/**
 * PGlite on a worker thread of its own, with the part of PGlite's interface Drizzle's driver uses
 * (`query`, `transaction`). Every statement runs there, so a long one never stops the server's
 * requests, as a PostgreSQL server's would not (ARCHITECTURE.md "Heavy work off the request thread").
 */
export class PgliteThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve(value: unknown): void; reject(err: Error): void }>();
  /** One connection: a statement or a whole transaction at a time; health probes, then requests, then background work. */
  readonly #turns = new ConnectionTurns();
  /** The background transaction under way, which a health probe's statement may join (transaction-lane.ts). */
  #joinable: { tx: number; lane: TransactionLane } | null = null;
  #nextId = 1;
  #failure: Error | null = null;
  private readonly waitReady: Promise<void>;

  /** Opens the database (in memory when `dataDir` is undefined) on a new thread; resolves once it answers. */
  static async open(dataDir: string | undefined): Promise<PgliteThread> {
    const thread = new PgliteThread(dataDir, await wasmModules());
    await thread.waitReady;
    return thread;
  }

  private constructor(dataDir: string | undefined, modules: Awaited<ReturnType<typeof wasmModules>>) {
    this.#worker = new Worker(new URL(WORKER_FILE, import.meta.url), { workerData: { dataDir, ...modules } });
    this.waitReady = new Promise((resolve, reject) => {
      this.#worker.once('message', (ready: PgliteReady) => {
        if (this.#pending.size === 0) this.#worker.unref();
        if (ready.ready) resolve();
        else reject(deserializeError(ready.error));
        this.#worker.on('message', (reply: PgliteReply) => this.#settle(reply));
      });
      this.#worker.once('error', reject);
    });
    this.#worker.on('error', (err) => this.#fail(err));
    this.#worker.on('exit', (code) => this.#fail(new Error(`The database thread stopped (exit code ${code})`)));
  }

  /** A statement, as PGlite's `query`: rows in `rowMode`, values of `parsers`' types kept as text. */
  query(sql: string, params: unknown[] = [], options: QueryOptions = {}): Promise<unknown> {
    const kind = turnKind();
    // A probe goes between the statements of the background transaction under way rather than after all of them.
    const joinable = this.#joinable;
    if (kind === 'probe' && joinable?.lane.open) return joinable.lane.probe(() => this.#statement(sql, params, options, joinable.tx, true));
    return this.#turns.run(kind, () => this.#statement(sql, params, options));
  }

  /** Runs `callback` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(callback: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    const kind = turnKind();
    return this.#turns.run(kind, async () => {
      const tx = (await this.#call({ op: 'begin' })) as number;
      const lane = new TransactionLane();
      // Background work's transactions (an import's batches) let health probes in between their statements.
      if (kind === 'background') this.#joinable = { tx, lane };
      const end = async (commit: boolean) => {
        if (this.#joinable?.lane === lane) this.#joinable = null;
        await lane.settled();
        await this.#call({ op: 'end', tx, commit });
      };
      let result: T;
      try {
        // Its statements are part of its turn: they go straight to the thread, one at a time.
        result = await callback({ query: (sql, params, options) => lane.statement(() => this.#statement(sql, params, options, tx)) });
      } catch (err) {
        await end(false).catch(() => undefined);
        throw err;
      }
      await end(true);
      return result;
    });
  }

  async close(): Promise<void> {
    if (this.#failure) return;
    await this.#call({ op: 'close' });
    // PGlite has closed its files; the thread has nothing left to do.
    await this.#worker.terminate();
  }

  /** As a PGlite for Drizzle's driver, which calls only `query` and `transaction`. */
  asPglite(): PGlite {
    return this as unknown as PGlite;
  }

  #statement(sql: string, params: unknown[] = [], options: QueryOptions = {}, tx?: number, savepoint = false): Promise<unknown> {
    // Drizzle's parsers only keep a type's text (dates); functions cannot cross threads, their types can.
    const textTypes = Object.keys(options.parsers ?? {}).map(Number);
    return this.#call({ op: 'query', sql, params, rowMode: options.rowMode ?? 'object', textTypes, ...(tx === undefined ? {} : { tx }), ...(savepoint ? { savepoint } : {}) });
  }

  #call(request: Request): Promise<unknown> {
    if (this.#failure) return Promise.reject(this.#failure);
    const id = this.#nextId++;
    // The thread keeps the process alive only while a statement is under way.
    if (this.#pending.size === 0) this.#worker.ref();
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ ...request, id } as PgliteRequest);
    });
  }

  #settle(reply: PgliteReply) {
    const waiting = this.#pending.get(reply.id);
    if (!waiting) return;
    this.#pending.delete(reply.id);
    if (this.#pending.size === 0) this.#worker.unref();
    if (reply.ok) waiting.resolve(reply.value);
    else waiting.reject(deserializeError(reply.error));
  }

  #fail(err: Error) {
    if (this.#failure) return;
    this.#failure = err;
    for (const waiting of this.#pending.values()) waiting.reject(err);
    this.#pending.clear();
  }
}
