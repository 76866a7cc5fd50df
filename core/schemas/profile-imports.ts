import { z } from 'zod';
import { Id } from './common';
import { ImportControl, ImportIssue, ImportedProfile, ProfileAssignment } from './profiles';
import { MAX_REPLICATES } from './replicates';

/**
 * A profile import as a job (issue 13): `parsing` (a worker reads the file) → `parsed` (preview; the
 * approval token is issued) → `checking` (the chosen profiles are checked against the assignment;
 * problems send it back to `parsed`) → `adding` (batches, one transaction each) → `added`. `failed`:
 * the file could not be read. `cancelled`: stopped by the user (whole batches stay added).
 * `interrupted`: the server stopped while adding; resume or discard.
 */
export const IMPORT_STATES = ['parsing', 'parsed', 'checking', 'adding', 'added', 'failed', 'cancelled', 'interrupted'] as const;
export type ImportState = (typeof IMPORT_STATES)[number];

/** States in which the job is working and the screen follows its progress. */
export const IMPORT_RUNNING_STATES: ReadonlySet<ImportState> = new Set(['parsing', 'checking', 'adding']);

/** Profiles per add batch: one transaction each, so a crash leaves whole batches (README "Imports"). */
export const IMPORT_BATCH_SIZE = 250;

/**
 * On the embedded database a batch holds its one connection (and, PGlite running in the server's thread, the event
 * loop): 250 profiles took about 160 ms, so a health probe or another user's page waited that long behind one
 * (issue 29: ≤ 100 ms). PostgreSQL's pool lets other requests pass, and larger batches add faster there.
 */
export const PGLITE_IMPORT_BATCH_SIZE = 100;

/** The add's batch size for the database the server runs on. */
export const importBatchSize = (database: 'pglite' | 'postgres'): number => (database === 'pglite' ? PGLITE_IMPORT_BATCH_SIZE : IMPORT_BATCH_SIZE);

/** Largest profile file (bytes): a GeneMapper long table of 100,000 references with 24 markers is about 70 MB. */
export const PROFILE_IMPORT_LIMIT_BYTES = 128 * 1024 * 1024;

/** A marker of the file and how many profiles are typed at it (the screen warns of markers outside the chosen kit). */
export const ImportMarker = z.object({ markerId: Id, name: z.string(), profiles: z.number().int() }).meta({ id: 'ImportMarker' });
export type ImportMarker = z.infer<typeof ImportMarker>;

/** The state of an import job, as the import screen polls it. */
export const ProfileImportJob = z
  .object({
    id: Id,
    fileName: z.string(),
    fileBytes: z.number().int(),
    format: z.string(),
    state: z.enum(IMPORT_STATES),
    /** Progress of the running phase: rows stored while parsing, profiles checked or added. */
    done: z.number().int(),
    total: z.number().int(),
    caseId: Id.nullable(),
    profileCount: z.number().int(),
    /** Profiles the parser marked with errors: never added. */
    flaggedCount: z.number().int(),
    errors: z.array(ImportIssue),
    warnings: z.array(ImportIssue),
    controls: z.array(ImportControl),
    markers: z.array(ImportMarker),
    suggestedChemistryId: Id.nullable(),
    chosenCount: z.number().int(),
    addedCount: z.number().int(),
    /** Why it failed, or why chosen profiles could not be added (then listed with `problems`). */
    message: z.string(),
    /** Profiles whose check against the assignment failed (`add_problems`): how many. */
    problemCount: z.number().int(),
    approvalExpiresAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'ProfileImportJob' });
export type ProfileImportJob = z.infer<typeof ProfileImportJob>;

/** One parsed profile on a preview page: its place in the file, the parser's errors and the add check's problems. */
export const ProfileImportRow = ImportedProfile.extend({
  index: z.number().int(),
  line: z.number().int().nullable(),
  problems: z.array(z.string()),
  /** Against the kit the page was read for (`chemistryId`, issue 31): heights under its analytical threshold (kept, flagged) and alleles it cannot size. Never block the add. */
  warnings: z.array(z.string()),
  chosen: z.boolean(),
  added: z.boolean(),
}).meta({ id: 'ProfileImportRow' });
export type ProfileImportRow = z.infer<typeof ProfileImportRow>;

/** Which rows a preview page shows. */
export const IMPORT_ROW_FILTERS = ['all', 'addable', 'flagged', 'problems'] as const;
export type ImportRowFilter = (typeof IMPORT_ROW_FILTERS)[number];

export const ProfileImportRowsQuery = z.object({
  page: z.coerce.number().int().min(0).default(0),
  pageSize: z.coerce.number().int().min(1).max(500).default(100),
  filter: z.enum(IMPORT_ROW_FILTERS).default('all'),
  /** The kit chosen for the add: each row's peak heights are weighed against its thresholds and sizes (`warnings`). */
  chemistryId: Id.optional(),
});
export type ProfileImportRowsQuery = z.infer<typeof ProfileImportRowsQuery>;

/**
 * Confirms an import: where the profiles go, and which to add — every profile without errors, less
 * `exclude`, or exactly `include` (indices into the file's profiles). The server checks each one again.
 */
export const AddImportBody = ProfileAssignment.extend({
  include: z.array(z.number().int().min(0)).max(200_000).optional(),
  exclude: z.array(z.number().int().min(0)).max(200_000).optional(),
  /**
   * Profiles of different sample names joined as one profile's replicates (issue 31: the runs of one
   * extract): each group's first profile in the file keeps its name and takes the others' runs.
   */
  groups: z.array(z.array(z.number().int().min(0)).min(2, 'A group joins at least two profiles').max(MAX_REPLICATES, `A profile keeps at most ${MAX_REPLICATES} replicates`)).max(50_000).optional(),
}).refine((b) => !(b.include && b.exclude), { message: 'Send include or exclude, not both', path: ['include'] });
export type AddImportBody = z.infer<typeof AddImportBody>;
