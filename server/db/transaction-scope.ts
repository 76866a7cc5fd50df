import { AsyncLocalStorage } from 'node:async_hooks';
import { shareDatabaseKind, type Db } from './database';

interface OpenTransaction {
  tx: Db;
  open: boolean;
}

/**
 * A database handle whose queries run on the transaction `run` opened for the current call, and on the
 * database itself outside one. Routes written against a plain `db` thereby write inside the transaction
 * that also appends their audit row (issue 30: a write and its audit row are saved together or not at all).
 */
export class TransactionScope {
  readonly #current = new AsyncLocalStorage<OpenTransaction>();
  readonly #base: Db;
  /** The handle to give routes. */
  readonly db: Db;

  constructor(base: Db) {
    this.#base = base;
    this.db = new Proxy(base, {
      get: (target, prop) => {
        const scope = this.#current.getStore();
        // Work a request started but left running after its transaction ended goes to the database itself.
        const on = scope?.open ? scope.tx : target;
        const value: unknown = Reflect.get(on, prop, on);
        // drizzle's `is()` reads the constructor's static fields: it is handed over as it is.
        return typeof value === 'function' && prop !== 'constructor' ? (value as (...a: unknown[]) => unknown).bind(on) : value;
      },
    });
    shareDatabaseKind(this.db, base);
  }

  /** Runs `work` in one transaction; the scope's handle reaches it from every call `work` makes. */
  run<T>(work: (tx: Db) => Promise<T>): Promise<T> {
    return this.#base.transaction(async (tx) => {
      const scope: OpenTransaction = { tx: tx as unknown as Db, open: true };
      try {
        return await this.#current.run(scope, () => work(scope.tx));
      } finally {
        scope.open = false;
      }
    });
  }
}
