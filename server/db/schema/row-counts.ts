import { bigint, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';

/**
 * How many rows of a list's table (profiles, hits, cases) each organization has in each status, kept exact by
 * triggers in the transaction of every insert, delete and status or organization change (migration 0018), so a
 * list's or a review figure's count is a few rows read, not a count of a million (issue 29). No foreign key: the
 * triggers are its only writers, and an organization keeps its rows (and so its counts) until its records go.
 */
export const rowCounts = pgTable(
  'row_counts',
  {
    /** The counted table: 'profiles', 'hits' or 'cases'. */
    relation: text('relation').notNull(),
    organizationId: uuid('organization_id').notNull(),
    status: text('status').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ name: 'row_counts_pk', columns: [t.relation, t.organizationId, t.status] })],
);
