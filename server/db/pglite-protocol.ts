// The messages between the server and the thread that runs PGlite (pglite-thread.ts, pglite-worker.mjs).

/** A statement: outside a transaction, or inside the open transaction `tx`. */
export interface QueryRequest {
  op: 'query';
  id: number;
  tx?: number;
  sql: string;
  params: unknown[];
  rowMode: 'array' | 'object';
  /** Type OIDs whose values stay the text PostgreSQL sent (Drizzle parses dates itself). */
  textTypes: number[];
  /**
   * Inside `tx`, in a savepoint released after it and rolled back to when it fails: a health probe between a
   * batch's statements, sent as one message (three, each through the request thread, let a busy event loop add
   * to the probe's wait; issue 29).
   */
  savepoint?: boolean;
}
/** Opens a transaction; answers its number. */
export interface BeginRequest {
  op: 'begin';
  id: number;
}
/** Commits or rolls back the transaction `tx`; answers once it is settled. */
export interface EndRequest {
  op: 'end';
  id: number;
  tx: number;
  commit: boolean;
}
export interface CloseRequest {
  op: 'close';
  id: number;
}
export type PgliteRequest = QueryRequest | BeginRequest | EndRequest | CloseRequest;

/** A database error as plain data: the message and PostgreSQL's fields (code, detail, constraint, …). */
export interface SerializedError {
  message: string;
  fields: Record<string, unknown>;
}

export type PgliteReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: SerializedError };

/** Sent once when the database is open (or could not be). */
export type PgliteReady = { ready: true } | { ready: false; error: SerializedError };

/** The error again on this side, with the same code and fields (pgErrorCode reads `code`). */
export function deserializeError(error: SerializedError): Error {
  return Object.assign(new Error(error.message), error.fields);
}
