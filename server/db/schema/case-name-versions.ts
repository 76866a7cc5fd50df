import { bigint, pgTable, uuid } from 'drizzle-orm/pg-core';
import { cases } from './cases';

/**
 * How often a case's profile names have changed: a trigger on profiles (migration 0031) adds one in the transaction
 * of every statement that inserts profiles into the case, and of every rename or move of a profile into it. An
 * import's batches read it under the case's lock (case-profile-names.ts): when it is still what their own last batch
 * left, nobody else has added or renamed a profile there, and the batch's names need not be looked for among the
 * case's profiles again (issue 29: that look read every profile of the case, 100,000 of them for each batch). A case
 * without a row has not changed since the migration: its names are read.
 */
export const caseNameVersions = pgTable('case_name_versions', {
  caseId: uuid('case_id')
    .primaryKey()
    .references(() => cases.id, { onDelete: 'cascade' }),
  version: bigint('version', { mode: 'number' }).notNull(),
});
