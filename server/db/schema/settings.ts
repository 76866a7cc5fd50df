import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Global settings by key: the About and Contact texts (spec 3 Settings) and other app-wide values. */
export const settings = pgTable('settings', {
  id: text('id').primaryKey(),
  text: text('text').notNull().default(''),
  version: integer('version').notNull().default(1),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
