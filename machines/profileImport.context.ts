import { assertEvent } from 'xstate';
import type { ImportRowFilter, ImportState, ProfileImportJob, ProfileImportRow } from '../core/schemas/profile-imports';
import type { ProfileAssignment, SampleType } from '../core/schemas/profiles';
import type { AddImportRequest, ImportError } from './profileImport.calls';
import type { ChosenFile } from './populationUpload.machine';
import { joinedCount, type ReplicateGroups } from './profileImport.groups';

// What the profile import screen holds (its context and events) and what follows from it (how many
// profiles a confirmation adds, what blocks it): split from profileImport.machine.ts, which holds the chart.

/** Profiles per preview page. */
export const IMPORT_PAGE_SIZE = 100;

/** Where the imported profiles go, as the user fills it in: the case comes from the screen; chemistry and sample type stay null until chosen. */
export type ImportAssignment = Omit<ProfileAssignment, 'caseId' | 'chemistryId' | 'sampleType'> & {
  chemistryId: string | null;
  sampleType: SampleType | null;
};

export interface ProfileImportInput {
  /** The case the screen imports into: sent with the upload and the confirmation. */
  caseId: string;
}

/** A running phase's counts at its first read, by the server's clock: where its rate and time left are counted from. */
export interface ProgressMark {
  state: ImportState;
  done: number;
  at: string;
}

/** The mark kept for a job just read: the same while its phase runs on, a new one when a phase starts (or its count restarts). */
export function nextProgressMark(mark: ProgressMark | null, job: ProfileImportJob): ProgressMark {
  const fresh = mark === null || mark.state !== job.state || job.done < mark.done;
  return fresh ? { state: job.state, done: job.done, at: job.updatedAt } : mark;
}

export interface ProfileImportContext {
  caseId: string;
  file: ChosenFile | null;
  /** The job as last read; null before the upload answers. */
  job: ProfileImportJob | null;
  /** The approval token of the last read of the job. */
  token: string | null;
  /** Where the running phase's progress is counted from (null before the first read). */
  progressMark: ProgressMark | null;
  /** The preview page shown (0-based), its filter, its rows and how many rows the filter matches. */
  page: number;
  filter: ImportRowFilter;
  rows: ProfileImportRow[];
  rowCount: number;
  /** Profiles left out of the add, by index in the file; only profiles without parser errors. */
  excluded: ReadonlySet<number>;
  /** Rows joined as one profile's replicates (profileImport.groups.ts); none left out. */
  groups: ReplicateGroups;
  assignment: ImportAssignment;
  error: ImportError | null;
  /** The user's unfinished imports of the case, newest first, as last listed (only read while choosing). */
  unfinished: ProfileImportJob[];
}

export type ProfileImportEvent =
  /** A file was picked: it is uploaded at once. */
  | { type: 'file.selected'; file: ChosenFile }
  /** Stop reading the file (the job is cancelled; nothing of it can be added). */
  | { type: 'parse.cancel' }
  | { type: 'page.next' }
  | { type: 'page.previous' }
  /** Read the page again after it failed. */
  | { type: 'page.retry' }
  | { type: 'filter.change'; filter: ImportRowFilter }
  /** Leave one profile out, or take it back in; a profile with parser errors is never in. */
  | { type: 'profile.toggle'; index: number }
  /** Join a row read with heights to another row's profile as its replicate (`with` its index), or keep it apart (null). */
  | { type: 'replicate.join'; index: number; with: number | null }
  /** Leave out every profile on the page that could be added (after a check named problems). */
  | { type: 'page.leaveOut' }
  | { type: 'assignment.change'; patch: Partial<ImportAssignment> }
  | { type: 'import.confirm' }
  /** Stop adding after the current batch (whole batches stay added). */
  | { type: 'add.cancel' }
  /** Send the same confirmation again after it failed. */
  | { type: 'add.retry' }
  /** Back from a failed confirmation to the preview, choices kept. */
  | { type: 'failure.dismiss' }
  /** The approval expired: upload the same file again for a new one, keeping the choices. */
  | { type: 'file.parseAgain' }
  /** An interrupted add: add the rest, or discard the import (what was added stays). */
  | { type: 'job.resume' }
  | { type: 'job.discard' }
  /** Read the job again after a read failed. */
  | { type: 'job.refresh' }
  /** Back to choosing a file; a job that is not running is discarded on the way. */
  | { type: 'import.startOver' }
  /** An unfinished import of the list: take it up where it stands, add the rest of an interrupted one, or discard one that is not running. */
  | { type: 'unfinished.continue'; importId: string }
  | { type: 'unfinished.resume'; importId: string }
  | { type: 'unfinished.discard'; importId: string }
  /** List them again after the list failed to load. */
  | { type: 'unfinished.refresh' };

/** Tags the view asks with hasTag: `busy` while a call or a job runs. */
export type ProfileImportTag = 'busy';

const EMPTY_ASSIGNMENT: ImportAssignment = {
  chemistryId: null,
  sampleType: null,
  sampleSourceId: null,
  physicalItemId: null,
  laboratoryId: null,
  comments: '',
};

/** The context before a file is chosen, and after starting over. */
export const initialImportContext = (caseId: string): ProfileImportContext => ({
  caseId,
  file: null,
  job: null,
  token: null,
  progressMark: null,
  page: 0,
  filter: 'all',
  rows: [],
  rowCount: 0,
  excluded: new Set(),
  groups: [],
  assignment: EMPTY_ASSIGNMENT,
  error: null,
  unfinished: [],
});

/** Profiles the parser did not flag: what the add takes by default. */
export const addableCount = (job: Pick<ProfileImportJob, 'profileCount' | 'flaggedCount'>): number => job.profileCount - job.flaggedCount;

/** How many profiles a confirmation would add: the addable ones less those left out and those joined to another as its replicates. */
export function chosenCount(context: Pick<ProfileImportContext, 'job' | 'excluded' | 'groups'>): number {
  return context.job ? Math.max(0, addableCount(context.job) - context.excluded.size - joinedCount(context.groups)) : 0;
}

/** The number of preview pages for the current filter (at least 1). */
export const pageCount = (context: Pick<ProfileImportContext, 'rowCount'>): number => Math.max(1, Math.ceil(context.rowCount / IMPORT_PAGE_SIZE));

/** The sample type every row names, or null when they differ or one names none. */
export function commonSampleType(rows: readonly Pick<ProfileImportRow, 'sampleType'>[]): SampleType | null {
  const first = rows[0]?.sampleType ?? null;
  return rows.every((r) => r.sampleType === first) ? first : null;
}

/** What keeps Confirm from being offered, worded for the screen; empty when the import may be confirmed. */
export function confirmBlockers(context: Pick<ProfileImportContext, 'job' | 'excluded' | 'groups' | 'assignment'>): string[] {
  const blockers: string[] = [];
  if (chosenCount(context) === 0) blockers.push('Choose at least one profile');
  if (!context.assignment.chemistryId) blockers.push('Choose a chemistry');
  if (!context.assignment.sampleType) blockers.push('Choose a sample type');
  return blockers;
}

/** The add call's input; only built once confirmBlockers is empty, so the required fields are set. */
export function addRequest(context: ProfileImportContext): AddImportRequest {
  const { chemistryId, sampleType, ...rest } = context.assignment;
  return {
    importId: context.job!.id,
    token: context.token!,
    body: { ...rest, caseId: context.caseId, chemistryId: chemistryId!, sampleType: sampleType!, exclude: [...context.excluded].sort((a, b) => a - b),
      ...(context.groups.length > 0 ? { groups: context.groups.map((g) => [...g]) } : {}),
    },
  };
}

/** A row that may be taken in or left out: shown on this page, no parser errors, not added yet. */
export const toggleable = (row: ProfileImportRow): boolean => row.errors.length === 0 && !row.added;

/** The listed import an `unfinished.*` event names, if it is still in the list. */
export function listedJob(context: ProfileImportContext, event: ProfileImportEvent): ProfileImportJob | undefined {
  assertEvent(event, ['unfinished.continue', 'unfinished.resume', 'unfinished.discard']);
  return context.unfinished.find((j) => j.id === event.importId);
}
