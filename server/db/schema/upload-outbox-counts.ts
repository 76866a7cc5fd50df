import { bigint, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * The upload outbox's backlog by state ('waiting', 'retrying', 'failed'), kept exact by a statement trigger on
 * upload_outbox in the transaction of every change (migration 0029), so /api/health reads a few rows instead of
 * counting 100,000 entries on every probe (issue 32). Insert-only deltas, one row per changing statement, summed
 * when read: no counter row is locked, so neither an approval nor a delivered batch waits for another's commit.
 * compactBacklogCounts folds them into one row per state.
 */
export const uploadOutboxCounts = pgTable('upload_outbox_counts', {
  state: text('state').notNull(),
  n: bigint('n', { mode: 'number' }).notNull(),
});
