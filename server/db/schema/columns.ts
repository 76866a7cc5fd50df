import { integer, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Columns every editable record carries: a GUID id, an optimistic-lock version, timestamps. */
export const recordColumns = {
  id: uuid('id').primaryKey().defaultRandom(),
  /** Incremented on each write; a write carrying an older version is refused with 409. */
  version: integer('version').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};
