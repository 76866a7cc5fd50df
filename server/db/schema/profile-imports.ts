import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { cases } from './cases';
import { organizations } from './organizations';
import { profiles } from './profiles';
import { users } from './users';

/**
 * A profile import as a job (issue 13, ARCHITECTURE.md "Heavy work off the request thread"): the file is
 * parsed in a worker into `profile_import_rows`, previewed page by page, then the chosen rows are added
 * to a case in batches, one transaction per batch, so a crash leaves whole batches and the job resumes.
 */
export const profileImports = pgTable(
  'profile_imports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The case the import was read for (the approval covers it); null when the parse named none. */
    caseId: uuid('case_id').references(() => cases.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    fileBytes: integer('file_bytes').notNull().default(0),
    format: text('format').notNull().default(''),
    /** core/schemas/profile-imports.ts IMPORT_STATES. */
    state: text('state').notNull().default('parsing'),
    /** Rows (or profiles) done and to do in the current phase, for the progress bar. */
    done: integer('done').notNull().default(0),
    total: integer('total').notNull().default(0),
    profileCount: integer('profile_count').notNull().default(0),
    flaggedCount: integer('flagged_count').notNull().default(0),
    errors: jsonb('errors').notNull().default([]),
    warnings: jsonb('warnings').notNull().default([]),
    controls: jsonb('controls').notNull().default([]),
    /** Each marker of the file with the number of profiles typed at it. */
    markers: jsonb('markers').notNull().default([]),
    suggestedChemistryId: uuid('suggested_chemistry_id'),
    /** Digest of the parsed content (approval-token.ts): what a client sending the profiles back must match. */
    digest: text('digest').notNull().default(''),
    /** The assignment of the add (case, chemistry, sample type, …) once confirmed. */
    assignment: jsonb('assignment'),
    chosenCount: integer('chosen_count').notNull().default(0),
    /** Chosen rows the last check refused (their reasons are on the rows). */
    problemCount: integer('problem_count').notNull().default(0),
    addedCount: integer('added_count').notNull().default(0),
    /** Why the job failed, or why the chosen profiles could not be added. */
    message: text('message').notNull().default(''),
    /** When the approval issued with the preview stops being accepted. */
    approvalExpiresAt: timestamp('approval_expires_at', { withTimezone: true }),
    /** When the approval was spent: one use (issue 13). */
    approvalUsedAt: timestamp('approval_used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('profile_imports_user_idx').on(t.userId, t.createdAt)],
);

/** One parsed profile of an import, in file order (`index`), with what keeps it from being added. */
export const profileImportRows = pgTable(
  'profile_import_rows',
  {
    importId: uuid('import_id')
      .notNull()
      .references(() => profileImports.id, { onDelete: 'cascade' }),
    index: integer('index').notNull(),
    line: integer('line'),
    profileId: text('profile_id').notNull(),
    kind: text('kind').notNull(),
    kit: text('kit'),
    sampleType: text('sample_type'),
    /** MarkerValue[]: marker id, name and alleles as parsed. */
    markerValues: jsonb('marker_values').notNull(),
    /** ImportedReplicate[]: the runs with their peak heights and sizes, when the file has heights (issue 31). */
    replicates: jsonb('replicates').notNull().default([]),
    /** The parser's problems (string[]): such a row can never be added. */
    errors: jsonb('errors').notNull().default([]),
    /** Problems found when checking the chosen rows against the assignment (string[]). */
    addProblems: jsonb('add_problems').notNull().default([]),
    chosen: boolean('chosen').notNull().default(false),
    /** Added to the case (its batch committed); a resumed add skips it. */
    added: boolean('added').notNull().default(false),
    addedProfileId: uuid('added_profile_id').references(() => profiles.id, { onDelete: 'set null' }),
  },
  (t) => [primaryKey({ name: 'profile_import_rows_pk', columns: [t.importId, t.index] })],
);
