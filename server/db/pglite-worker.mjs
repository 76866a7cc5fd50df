// @ts-check
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
// Trigram indexes for the lists' free-text search (migration 0009, issue 15).
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

// PGlite runs each statement on the thread that calls it; here, on a thread of its own, a long
// statement no longer stops the server's requests (issue 13: 119 ms stalls while adding 100,000).
// Plain JavaScript: Node 20 does not apply tsx's loader to a worker's own entry file. The messages
// are described in pglite-protocol.ts.

/** @typedef {import('@electric-sql/pglite').Transaction} Transaction */
/** @typedef {import('./pglite-protocol').PgliteRequest} PgliteRequest */
/** @typedef {import('./pglite-protocol').QueryRequest} QueryRequest */

/**
 * An error's message and own fields (code, detail, constraint, …), which survive the copy between
 * threads (an Error's own properties do not).
 * @param {unknown} err
 * @returns {import('./pglite-protocol').SerializedError}
 */
function serializeError(err) {
  if (!(err instanceof Error)) return { message: String(err), fields: {} };
  /** @type {Record<string, unknown>} */
  const fields = {};
  for (const [key, value] of Object.entries(err)) {
    if (value === undefined || typeof value === 'function' || (typeof value === 'object' && value !== null)) continue;
    fields[key] = value;
  }
  return { message: err.message, fields };
}

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
/** @type {{ dataDir: string | undefined; pgliteWasmModule: WebAssembly.Module; initdbWasmModule: WebAssembly.Module }} */
const { dataDir, pgliteWasmModule, initdbWasmModule } = workerData;

/**
 * PGlite's own start parameters, and new WAL segments not zero-filled (wal_init_zero, PostgreSQL 12+): with no
 * checkpointer in single-user mode few segments are recycled, and the commit that opened a new one wrote 16 MB of
 * zeros first, 40-58 ms every ~3 s during a 100,000-profile import while health probes waited (issue 29). PGlite runs
 * without fsync (-F) already; WAL records carry their own checksums, so the zeros protect nothing here.
 */
const START_PARAMS = [...PGlite.defaultStartParams, '-c', 'wal_init_zero=off'];

/** The server rolled the transaction back (its callback failed): not an error to report. */
const ROLLED_BACK = Symbol('rolled back');

/** @type {Map<number, { tx: Transaction; decide(commit: boolean): void; settled: Promise<void> }>} */
const transactions = new Map();
let nextTransaction = 1;

/**
 * @param {PGlite} db
 * @param {QueryRequest} request
 */
function run(db, request) {
  const target = request.tx === undefined ? db : transactions.get(request.tx)?.tx;
  if (!target) return Promise.reject(new Error(`Transaction ${request.tx} is not open`));
  const parsers = Object.fromEntries(request.textTypes.map((oid) => [oid, (/** @type {string} */ value) => value]));
  const statement = () => target.query(request.sql, request.params, { rowMode: request.rowMode, parsers });
  return request.savepoint ? inSavepoint(target, statement) : statement();
}

/**
 * A probe's statement inside the open transaction, which it leaves as it was whether it succeeds or fails.
 * @template T
 * @param {Transaction | PGlite} target
 * @param {() => Promise<T>} statement
 * @returns {Promise<T>}
 */
async function inSavepoint(target, statement) {
  await target.query('savepoint locus_probe');
  try {
    const result = await statement();
    await target.query('release savepoint locus_probe');
    return result;
  } catch (err) {
    await target.query('rollback to savepoint locus_probe');
    await target.query('release savepoint locus_probe');
    throw err;
  }
}

/**
 * Opens a transaction and keeps it open until `end` decides it.
 * @param {PGlite} db
 * @returns {Promise<number>}
 */
function begin(db) {
  return new Promise((resolve, reject) => {
    const id = nextTransaction++;
    let started = false;
    /** @type {(commit: boolean) => void} */
    let decide = () => undefined;
    /** @type {Promise<boolean>} */
    const decision = new Promise((r) => (decide = r));
    const settled = db
      .transaction(async (tx) => {
        started = true;
        transactions.set(id, { tx, decide, settled });
        resolve(id);
        if (!(await decision)) throw ROLLED_BACK;
      })
      .then(
        () => undefined,
        (/** @type {unknown} */ err) => {
          if (!started) reject(err);
          if (err !== ROLLED_BACK) throw err;
        },
      )
      .finally(() => transactions.delete(id));
    // Reported through `end`; never an unhandled rejection of its own.
    settled.catch(() => undefined);
  });
}

/**
 * @param {number} id
 * @param {boolean} commit
 */
async function end(id, commit) {
  const open = transactions.get(id);
  if (!open) throw new Error(`Transaction ${id} is not open`);
  open.decide(commit);
  await open.settled;
}

/**
 * Keeps each data file's size between PostgreSQL's lseek(SEEK_END)s, which Emscripten's NODEFS answers with an fstat
 * system call every time: PostgreSQL asks a relation's size, and each of its indexes', whenever it plans or scans
 * one: fstat took about a quarter of the database thread's busy time over 300 profile list pages (issue 29,
 * --cpu-prof at 100,000 profiles). This thread alone opens the data folder (PGlite is one
 * process's), and every change of a file's size goes through NODEFS's write, setattr (truncate) or allocate, which
 * forget the size; the next lseek(SEEK_END) reads it again.
 * @param {any} nodefs Emscripten's NODEFS, whose stream and node operations every file of the data folder shares
 */
function keepFileSizes(nodefs) {
  /** @type {WeakMap<object, number>} */
  const sizes = new WeakMap();
  const streamOps = nodefs.stream_ops;
  const nodeOps = nodefs.node_ops;
  const SEEK_END = 2;
  const S_IFMT = 0o170000;
  const S_IFREG = 0o100000;
  const { llseek } = streamOps;
  streamOps.llseek = function (/** @type {any} */ stream, /** @type {number} */ offset, /** @type {number} */ whence) {
    if (whence !== SEEK_END || (stream.node.mode & S_IFMT) !== S_IFREG) return llseek.call(this, stream, offset, whence);
    let size = sizes.get(stream.node);
    if (size === undefined) {
      size = /** @type {number} */ (llseek.call(this, stream, 0, SEEK_END));
      sizes.set(stream.node, size);
    }
    // A position before the start: the original raises EINVAL.
    return size + offset < 0 ? llseek.call(this, stream, offset, whence) : size + offset;
  };
  /** @param {Record<string, any>} ops @param {string} name @param {(args: any[]) => object} nodeOf */
  const forgetting = (ops, name, nodeOf) => {
    const original = ops[name];
    if (typeof original !== 'function') return;
    ops[name] = function (/** @type {any[]} */ ...args) {
      sizes.delete(nodeOf(args));
      return original.apply(this, args);
    };
  };
  for (const name of ['write', 'setattr', 'allocate']) forgetting(streamOps, name, (args) => args[0].node);
  forgetting(nodeOps, 'setattr', (args) => args[0]);
}

async function main() {
  /** @type {PGlite} */
  let db;
  try {
    // Compiled once by the server and shared with every database thread.
    db = new PGlite({ ...(dataDir ? { dataDir } : {}), startParams: START_PARAMS, pgliteWasmModule, initdbWasmModule, extensions: { pg_trgm } });
    await db.waitReady;
    if (dataDir) keepFileSizes(/** @type {any} */ (db.Module).NODEFS);
  } catch (err) {
    port.postMessage({ ready: false, error: serializeError(err) });
    return;
  }
  port.postMessage({ ready: true });
  port.on('message', (/** @type {PgliteRequest} */ request) => {
    const work = request.op === 'query' ? run(db, request) : request.op === 'begin' ? begin(db) : request.op === 'end' ? end(request.tx, request.commit) : db.close();
    work.then(
      (value) => port.postMessage({ id: request.id, ok: true, value }),
      (/** @type {unknown} */ err) => port.postMessage({ id: request.id, ok: false, error: serializeError(err) }),
    );
  });
}

void main();
