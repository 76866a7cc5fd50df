import { customType, integer, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Columns every editable record carries: a GUID id, an optimistic-lock version, timestamps. */
export const recordColumns = {
  id: uuid('id').primaryKey().defaultRandom(),
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
