import { pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { recordColumns } from './columns';

export const organizations = pgTable(
  'organizations',
  { ...recordColumns, name: text('name').notNull() },
  // Names are unique regardless of case: the organization switcher shows names only.
  (t) => [uniqueIndex('organizations_name_unique').on(sql`lower(${t.name})`)],
);
