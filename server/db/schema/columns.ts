import { sql } from 'drizzle-orm';
import { customType, integer, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Columns every editable record carries: a GUID id, an optimistic-lock version, timestamps. */
export const recordColumns = {
  // Time-ordered (RFC 9562 version 7, migration 0010's uuid_v7()): a new row's id lands at the right end of the
  // primary key and of the lists' indexes, which then stay about 90% full; random ids split pages everywhere
  // (72% full at 1M profiles, 40 bytes a profile for the primary key alone).
  id: uuid('id').primaryKey().default(sql`uuid_v7()`),
  /** Incremented on each write; a write carrying an older version is refused with 409. */
  version: integer('version').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/** File contents kept in the database (citations, agency files), so a backup holds everything. */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});
