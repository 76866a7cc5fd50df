import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { IMPORT_RUNNING_STATES, type ImportRowFilter, type ImportState, type ProfileImportJob, type ProfileImportRow } from '../core/schemas/profile-imports';
import { APPROVAL_REFUSALS, type ApprovalRefusal, type ProfileAssignment, type SampleType } from '../core/schemas/profiles';
import type { ChosenFile } from './populationUpload.machine';
import { GENERIC_FAILURE, toEditorError, type EditorError } from './recordEditor.machine';

/**
 * Importing a profile file into a case as a server job (issues 4 and 13; core/schemas/profile-imports.ts):
 * the file is uploaded and read in the background while the screen follows its progress; the parsed
 * profiles are previewed page by page, the user leaves some out and says where they go; the
 * confirmation (with the approval token of the last read of the job) checks the chosen profiles,
 * then adds them in batches, again followed. Problems found by the check bring the preview back with
 * them; a refused approval, an expired one (read the same file again), a stop after the current
 * batch and an add interrupted by a server stop (resume or discard) each have a state the screen
 * draws. While no file is chosen, the user's unfinished imports of the case are listed, to be
 * continued (the job is read and drawn where it stands), resumed or discarded. Pure: every call is
 * an injected actor (the fire-and-forget discard of a replaced import an injected action) and the
 * pause between two reads is the named delay `pollInterval`.
 */

/** How long the screen waits between two reads of a running job. */
export const IMPORT_POLL_MS = 700;
/** Profiles per preview page. */
export const IMPORT_PAGE_SIZE = 100;

/** Where the imported profiles go, as the user fills it in: the case comes from the screen; chemistry and sample type stay null until chosen. */
export type ImportAssignment = Omit<ProfileAssignment, 'caseId' | 'chemistryId' | 'sampleType'> & {
  chemistryId: string | null;
  sampleType: SampleType | null;
};

/** A job as the API shows it, with the `Approval-Token` response header (null while it may not be confirmed). */
export interface JobView {
  job: ProfileImportJob;
  token: string | null;
}

export interface UploadRequest {
  file: ChosenFile;
  caseId: string;
}

export interface JobRequest {
  importId: string;
}

/** The user's unfinished imports of a case (GET /profile-imports?caseId=…&open=true). */
export interface UnfinishedRequest {
  caseId: string;
}

export interface PageRequest {
  importId: string;
  page: number;
  pageSize: number;
  filter: ImportRowFilter;
}

/** One page of the import's profiles and how many match the filter. */
export interface RowsPage {
  items: ProfileImportRow[];
  count: number;
}

/** The add call: every profile without parser errors less `exclude` (server default), with the approval token. */
export interface AddImportRequest {
  importId: string;
  token: string;
  body: ProfileAssignment & { exclude: number[] };
}

/** Why a call failed, plus why the server refused the approval token (400 `details.approval`), if it did. */
export interface ImportError extends EditorError {
  approval?: ApprovalRefusal;
}

/**
 * What the actors may reject with, so the screen shows the server's message and the machine can
 * tell an expired approval from other refusals. `status` 0: no response came.
 */
export class ImportCallError extends Error {
  override readonly name = 'ImportCallError';

  constructor(
    message: string,
    readonly status = 0,
    readonly approval?: ApprovalRefusal,
  ) {
    super(message);
  }
}

const isRefusal = (value: unknown): value is ApprovalRefusal => (APPROVAL_REFUSALS as readonly unknown[]).includes(value);

/** Turns what an actor rejected with into what the screen shows: an ImportCallError as is, an ApiError by its status, message and `details.approval`. */
export function toImportError(err: unknown): ImportError {
  const base =
    err instanceof ImportCallError ? { status: err.status, message: err.message || GENERIC_FAILURE } : toEditorError(err);
  const approval = err instanceof ImportCallError ? err.approval : (err as { body?: { details?: { approval?: unknown } } })?.body?.details?.approval;
  return isRefusal(approval) ? { ...base, approval } : base;
}

/** The server's words for an approval that ran out (server/http/profile-imports/confirm-import.ts), for a job that no longer offers one. */
export const APPROVAL_EXPIRED_MESSAGE = 'The approval of this import has expired. Parse the file again, then confirm.';

export interface ProfileImportInput {
  /** The case the screen imports into: sent with the upload and the confirmation. */
  caseId: string;
}

export interface ProfileImportContext {
  caseId: string;
  file: ChosenFile | null;
  /** The job as last read; null before the upload answers. */
  job: ProfileImportJob | null;
  /** The approval token of the last read of the job. */
  token: string | null;
  /** The preview page shown (0-based), its filter, its rows and how many rows the filter matches. */
  page: number;
  filter: ImportRowFilter;
  rows: ProfileImportRow[];
  rowCount: number;
  /** Profiles left out of the add, by index in the file; only profiles without parser errors. */
  excluded: ReadonlySet<number>;
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
  page: 0,
  filter: 'all',
  rows: [],
  rowCount: 0,
  excluded: new Set(),
  assignment: EMPTY_ASSIGNMENT,
  error: null,
  unfinished: [],
});

/** Profiles the parser did not flag: what the add takes by default. */
export const addableCount = (job: Pick<ProfileImportJob, 'profileCount' | 'flaggedCount'>): number => job.profileCount - job.flaggedCount;

/** How many profiles a confirmation would add: the addable ones less those left out. */
export function chosenCount(context: Pick<ProfileImportContext, 'job' | 'excluded'>): number {
  return context.job ? Math.max(0, addableCount(context.job) - context.excluded.size) : 0;
}

/** The number of preview pages for the current filter (at least 1). */
export const pageCount = (context: Pick<ProfileImportContext, 'rowCount'>): number => Math.max(1, Math.ceil(context.rowCount / IMPORT_PAGE_SIZE));

/** The sample type every row names, or null when they differ or one names none. */
export function commonSampleType(rows: readonly Pick<ProfileImportRow, 'sampleType'>[]): SampleType | null {
  const first = rows[0]?.sampleType ?? null;
  return rows.every((r) => r.sampleType === first) ? first : null;
}

/** What keeps Confirm from being offered, worded for the screen; empty when the import may be confirmed. */
export function confirmBlockers(context: Pick<ProfileImportContext, 'job' | 'excluded' | 'assignment'>): string[] {
  const blockers: string[] = [];
  if (chosenCount(context) === 0) blockers.push('Choose at least one profile');
  if (!context.assignment.chemistryId) blockers.push('Choose a chemistry');
  if (!context.assignment.sampleType) blockers.push('Choose a sample type');
  return blockers;
}

/** The add call's input; only built once confirmBlockers is empty, so the required fields are set. */
function addRequest(context: ProfileImportContext): AddImportRequest {
  const { chemistryId, sampleType, ...rest } = context.assignment;
  return {
    importId: context.job!.id,
    token: context.token!,
    body: { ...rest, caseId: context.caseId, chemistryId: chemistryId!, sampleType: sampleType!, exclude: [...context.excluded].sort((a, b) => a - b) },
  };
}

/** A row that may be taken in or left out: shown on this page, no parser errors, not added yet. */
const toggleable = (row: ProfileImportRow): boolean => row.errors.length === 0 && !row.added;

const notProvided = async (): Promise<never> => {
  throw new Error('profileImportMachine: provide this actor (the profile import screen)');
};

/** The listed import an `unfinished.*` event names, if it is still in the list. */
function listedJob(context: ProfileImportContext, event: ProfileImportEvent): ProfileImportJob | undefined {
  assertEvent(event, ['unfinished.continue', 'unfinished.resume', 'unfinished.discard']);
  return context.unfinished.find((j) => j.id === event.importId);
}

const jobIn =
  (...states: ImportState[]) =>
  ({ context }: { context: ProfileImportContext }) =>
    context.job !== null && states.includes(context.job.state);

export const profileImportMachine = setup({
  types: {
    context: {} as ProfileImportContext,
    events: {} as ProfileImportEvent,
    input: {} as ProfileImportInput,
    tags: {} as ProfileImportTag,
  },
  actors: {
    uploadFile: fromPromise<JobView, UploadRequest>(notProvided),
    readJob: fromPromise<JobView, JobRequest>(notProvided),
    readPage: fromPromise<RowsPage, PageRequest>(notProvided),
    addProfiles: fromPromise<JobView, AddImportRequest>(notProvided),
    cancelJob: fromPromise<JobView, JobRequest>(notProvided),
    resumeJob: fromPromise<JobView, JobRequest>(notProvided),
    discardJob: fromPromise<void, JobRequest>(notProvided),
    listUnfinished: fromPromise<ProfileImportJob[], UnfinishedRequest>(notProvided),
  },
  delays: {
    pollInterval: IMPORT_POLL_MS,
  },
  guards: {
    jobRunning: (_, params: { view: JobView }) => IMPORT_RUNNING_STATES.has(params.view.job.state),
    running: jobIn('parsing', 'checking', 'adding'),
    reading: jobIn('parsing'),
    adding: jobIn('checking', 'adding'),
    /** Back from the check: chosen profiles do not fit the assignment. */
    problemsFound: ({ context }) => context.job?.state === 'parsed' && context.job.problemCount > 0,
    parsed: jobIn('parsed'),
    added: jobIn('added'),
    /** Cancelled before any confirmation: the reading of the file was stopped. */
    parseCancelled: ({ context }) => context.job?.state === 'cancelled' && context.job.chosenCount === 0,
    cancelled: jobIn('cancelled'),
    interrupted: jobIn('interrupted'),
    hasNextPage: ({ context }) => context.page + 1 < pageCount(context),
    hasPreviousPage: ({ context }) => context.page > 0,
    /** Leaving out is undone at any time; a profile is left out only when its row is on the page and could be added. */
    canToggle: ({ context, event }) => {
      assertEvent(event, 'profile.toggle');
      if (context.excluded.has(event.index)) return true;
      const row = context.rows.find((r) => r.index === event.index);
      return row !== undefined && toggleable(row);
    },
    pageHasAddable: ({ context }) => context.rows.some((r) => toggleable(r) && !context.excluded.has(r.index)),
    canConfirm: ({ context }) => confirmBlockers(context).length === 0,
    /** The job as last read offers no approval: it ran out while the preview was open. */
    approvalMissing: ({ context }) => context.token === null,
    approvalExpired: (_, params: { error: unknown }) => toImportError(params.error).approval === 'expired',
    approvalRefused: (_, params: { error: unknown }) => toImportError(params.error).approval !== undefined,
    /** A job exists and is not running: starting over discards it. */
    hasSettledJob: ({ context }) => context.job !== null && !IMPORT_RUNNING_STATES.has(context.job.state),
    /** The file of the job is still at hand (a job continued from the list came without one). */
    hasFile: ({ context }) => context.file !== null,
    /** The listed import named by the event: still listed (any unfinished state may be continued). */
    unfinishedListed: ({ context, event }) => listedJob(context, event) !== undefined,
    unfinishedInterrupted: ({ context, event }) => listedJob(context, event)?.state === 'interrupted',
    /** The server discards only an import that is not running (409 otherwise: cancel it first). */
    unfinishedSettled: ({ context, event }) => {
      const job = listedJob(context, event);
      return job !== undefined && !IMPORT_RUNNING_STATES.has(job.state);
    },
  },
  actions: {
    // A new file starts a new import: nothing of the previous one is kept.
    storeFile: assign(({ context, event }) => {
      assertEvent(event, 'file.selected');
      return { ...initialImportContext(context.caseId), file: event.file };
    }),
    // The same file again for a new approval: the choices stay.
    forgetJob: assign({ job: null, token: null, rows: [], rowCount: 0, page: 0, filter: 'all' as const, error: null }),
    storeJob: assign((_, params: { view: JobView }) => ({ job: params.view.job, token: params.view.token })),
    // The first preview: the whole file's list, the suggested kit for a chemistry not chosen yet, and
    // only left-out profiles that the (new) file still holds.
    showAll: assign(({ context }) => {
      const job = context.job!;
      const chemistryId = context.assignment.chemistryId ?? job.suggestedChemistryId;
      return {
        page: 0,
        filter: 'all' as const,
        excluded: new Set([...context.excluded].filter((i) => i < job.profileCount)),
        assignment: { ...context.assignment, chemistryId },
      };
    }),
    // The check named problems: show just those profiles, so they can be left out.
    showProblems: assign({ page: 0, filter: 'problems' as const, rows: [], rowCount: 0 }),
    storePage: assign(({ context }, params: { page: RowsPage }) => {
      const { items, count } = params.page;
      // A file read whole on this page tells its sample type, when every profile names the same one.
      const wholeFile = context.filter === 'all' && context.page === 0 && context.job !== null && count === context.job.profileCount && count <= IMPORT_PAGE_SIZE;
      const sampleType = context.assignment.sampleType ?? (wholeFile ? commonSampleType(items) : null);
      return { rows: items, rowCount: count, assignment: { ...context.assignment, sampleType } };
    }),
    nextPage: assign({ page: ({ context }) => context.page + 1 }),
    previousPage: assign({ page: ({ context }) => context.page - 1 }),
    changeFilter: assign(({ event }) => {
      assertEvent(event, 'filter.change');
      // The rows of another filter are not shown under this one, even while its first page is read.
      return { filter: event.filter, page: 0, rows: [], rowCount: 0 };
    }),
    toggleProfile: assign({
      excluded: ({ context, event }) => {
        assertEvent(event, 'profile.toggle');
        const next = new Set(context.excluded);
        if (!next.delete(event.index)) next.add(event.index);
        return next;
      },
    }),
    leaveOutPage: assign({
      excluded: ({ context }) => new Set([...context.excluded, ...context.rows.filter(toggleable).map((r) => r.index)]),
    }),
    changeAssignment: assign({
      assignment: ({ context, event }) => {
        assertEvent(event, 'assignment.change');
        return { ...context.assignment, ...event.patch };
      },
    }),
    storeError: assign((_, params: { error: unknown }) => ({ error: toImportError(params.error) })),
    approvalMissingError: assign({ error: { status: 0, message: APPROVAL_EXPIRED_MESSAGE, approval: 'expired' as const } }),
    clearError: assign({ error: null }),
    startOver: assign(({ context }) => initialImportContext(context.caseId)),
    storeUnfinished: assign((_, params: { jobs: ProfileImportJob[] }) => ({ unfinished: params.jobs })),
    // A listed import becomes the current job, with nothing of the screen before it.
    takeListed: assign(({ context, event }) => ({ ...initialImportContext(context.caseId), job: listedJob(context, event)! })),
    // Gone from the list at once; the list is read again once the server has answered.
    dropListed: assign(({ context, event }) => {
      const dropped = listedJob(context, event)!;
      return { unfinished: context.unfinished.filter((j) => j !== dropped) };
    }),
    /**
     * Discards an import the user has moved on from (an expired approval read again, a file that
     * could not be read), without waiting: a failed discard leaves rows the server keeps, never a
     * blocked screen. No-op here; the screen supplies the call.
     */
    discardQuietly: (_, _params: JobRequest) => undefined,
  },
}).createMachine({
  id: 'profileImport',
  context: ({ input }) => initialImportContext(input.caseId),
  initial: 'choosing',
  states: {
    /**
     * No file yet; an upload refused by the server (400, 413) shows its message here. The user's
     * unfinished imports of the case are listed above the file input; a file can be chosen at any
     * time, whether the list has loaded, failed or is being changed.
     */
    choosing: {
      initial: 'loadingList',
      on: { 'file.selected': { target: 'uploading', actions: 'storeFile' } },
      states: {
        loadingList: {
          invoke: {
            id: 'listUnfinished',
            src: 'listUnfinished',
            input: ({ context }) => ({ caseId: context.caseId }),
            onDone: { target: 'listed', actions: { type: 'storeUnfinished', params: ({ event }) => ({ jobs: event.output }) } },
            // A quiet notice only: `error` keeps the message of a refused upload, which matters more.
            onError: { target: 'listFailed' },
          },
        },
        /** The list as read (possibly empty): each import may be continued, resumed or discarded. */
        listed: {
          on: {
            'unfinished.continue': { guard: 'unfinishedListed', target: '#profileImport.opening', actions: 'takeListed' },
            'unfinished.resume': { guard: 'unfinishedInterrupted', target: '#profileImport.resuming', actions: 'takeListed' },
            'unfinished.discard': { guard: 'unfinishedSettled', target: 'discardingListed', actions: 'dropListed' },
          },
        },
        /** The list could not be read: a quiet notice; the file input works as ever. */
        listFailed: {
          on: { 'unfinished.refresh': { target: 'loadingList' } },
        },
        /** A listed import is discarded on the server, then the list is read again (also when the discard failed: the API client has said why). */
        discardingListed: {
          invoke: {
            id: 'discardListed',
            src: 'discardJob',
            input: ({ event }) => {
              assertEvent(event, 'unfinished.discard');
              return { importId: event.importId };
            },
            onDone: { target: 'loadingList' },
            onError: { target: 'loadingList' },
          },
        },
      },
    },
    uploading: {
      tags: ['busy'],
      invoke: {
        id: 'uploadFile',
        src: 'uploadFile',
        input: ({ context }) => ({ file: context.file!, caseId: context.caseId }),
        onDone: { target: 'settled', actions: { type: 'storeJob', params: ({ event }) => ({ view: event.output }) } },
        onError: { target: 'choosing', actions: ['startOver', { type: 'storeError', params: ({ event }) => ({ error: event.error }) }] },
      },
    },

    /**
     * Where a job read goes once it is no longer running in the phase that read it: the state that
     * draws it. Errors of the phase before are dropped here.
     */
    settled: {
      always: [
        { guard: 'running', target: 'following', actions: 'clearError' },
        { guard: 'problemsFound', target: 'parsed', actions: ['clearError', 'showProblems'] },
        { guard: 'parsed', target: 'parsed', actions: ['clearError', 'showAll'] },
        { guard: 'added', target: 'added', actions: 'clearError' },
        { guard: 'parseCancelled', target: 'choosing', actions: 'startOver' },
        { guard: 'cancelled', target: 'cancelled', actions: 'clearError' },
        { guard: 'interrupted', target: 'interrupted', actions: 'clearError' },
        // failed: the file could not be read.
        { target: 'parseFailed', actions: 'clearError' },
      ],
    },

    /**
     * A job is running (reading the file, checking or adding): read every pollInterval for its
     * progress until it settles. The job's state says which phase it is in; region `stop` asks the
     * server to stop it (reading: at once; adding: after the current batch, whole batches stay).
     */
    following: {
      tags: ['busy'],
      type: 'parallel',
      states: {
        poll: {
          initial: 'waiting',
          states: {
            waiting: { after: { pollInterval: 'polling' } },
            polling: {
              invoke: {
                id: 'readJob',
                src: 'readJob',
                input: ({ context }) => ({ importId: context.job!.id }),
                onDone: [
                  { guard: { type: 'jobRunning', params: ({ event }) => ({ view: event.output }) }, target: 'waiting', actions: { type: 'storeJob', params: ({ event }) => ({ view: event.output }) } },
                  { target: '#profileImport.settled', actions: { type: 'storeJob', params: ({ event }) => ({ view: event.output }) } },
                ],
                onError: { target: '#profileImport.unreachable', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
              },
            },
          },
        },
        stop: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'parse.cancel': { guard: 'reading', target: 'requesting', actions: 'clearError' },
                'add.cancel': { guard: 'adding', target: 'requesting', actions: 'clearError' },
              },
            },
            requesting: {
              invoke: {
                id: 'cancelJob',
                src: 'cancelJob',
                input: ({ context }) => ({ importId: context.job!.id }),
                onDone: { target: 'requested', actions: { type: 'storeJob', params: ({ event }) => ({ view: event.output }) } },
                // Not stopped (it finished meanwhile, or runs in a server that restarted): it is still followed.
                onError: { target: 'idle', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
              },
            },
            /** The server was told; the job is followed until it has stopped. */
            requested: {},
          },
        },
      },
    },
    /**
     * An import taken up from the list (or one whose read failed, Check again): read once, for its
     * state and the approval token, then drawn where it stands.
     */
    opening: {
      tags: ['busy'],
      invoke: {
        id: 'openJob',
        src: 'readJob',
        input: ({ context }) => ({ importId: context.job!.id }),
        onDone: { target: 'settled', actions: { type: 'storeJob', params: ({ event }) => ({ view: event.output }) } },
        onError: { target: 'unreachable', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
      },
    },

    /** The file could not be read (job `failed`): its message, and another file to choose (the failed import is discarded on the way). */
    parseFailed: {
      on: {
        'file.selected': { target: 'uploading', actions: [{ type: 'discardQuietly', params: ({ context }) => ({ importId: context.job!.id }) }, 'storeFile'] },
        'import.startOver': { target: 'discarding' },
      },
    },

    /** The preview: pages of profiles, the file's problems, the assignment; Confirm once nothing blocks it. */
    parsed: {
      initial: 'loadingPage',
      states: {
        loadingPage: {
          invoke: {
            id: 'readPage',
            src: 'readPage',
            input: ({ context }) => ({ importId: context.job!.id, page: context.page, pageSize: IMPORT_PAGE_SIZE, filter: context.filter }),
            onDone: { target: 'ready', actions: { type: 'storePage', params: ({ event }) => ({ page: event.output }) } },
            onError: { target: 'pageFailed', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        /** The page shown is the page read: its rows may be left out. */
        ready: {
          on: {
            'profile.toggle': { guard: 'canToggle', actions: 'toggleProfile' },
            'page.leaveOut': { guard: 'pageHasAddable', actions: 'leaveOutPage' },
          },
        },
        /** The page could not be read; the rows of the page before stay on screen, not to be changed. */
        pageFailed: {
          on: { 'page.retry': { target: 'loadingPage', actions: 'clearError' } },
        },
      },
      on: {
        'page.next': { guard: 'hasNextPage', target: '.loadingPage', actions: ['clearError', 'nextPage'] },
        'page.previous': { guard: 'hasPreviousPage', target: '.loadingPage', actions: ['clearError', 'previousPage'] },
        'filter.change': { target: '.loadingPage', actions: ['clearError', 'changeFilter'] },
        'assignment.change': { actions: 'changeAssignment' },
        'import.confirm': [
          { guard: 'approvalMissing', target: 'tokenExpired', actions: 'approvalMissingError' },
          { guard: 'canConfirm', target: 'confirming', actions: 'clearError' },
        ],
        'import.startOver': { target: 'discarding' },
      },
    },

    /** The confirmation is sent; the server answers at once (202) and checks in the background. */
    confirming: {
      tags: ['busy'],
      invoke: {
        id: 'addProfiles',
        src: 'addProfiles',
        input: ({ context }) => addRequest(context),
        onDone: { target: 'settled', actions: { type: 'storeJob', params: ({ event }) => ({ view: event.output }) } },
        onError: [
          {
            guard: { type: 'approvalExpired', params: ({ event }) => ({ error: event.error }) },
            target: 'tokenExpired',
            actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
          },
          {
            guard: { type: 'approvalRefused', params: ({ event }) => ({ error: event.error }) },
            target: 'refused',
            actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
          },
          { target: 'addFailed', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
        ],
      },
    },
    /** Done: the profiles wait for review. */
    added: {
      on: { 'import.startOver': { target: 'discarding' } },
    },
    /** Stopped by the user: whole batches were added, the rest not. */
    cancelled: {
      on: { 'import.startOver': { target: 'discarding' } },
    },
    /** The server stopped while adding: resume after the last whole batch, or discard. */
    interrupted: {
      on: {
        'job.resume': { target: 'resuming', actions: 'clearError' },
        'job.discard': { target: 'discarding', actions: 'clearError' },
      },
    },
    resuming: {
      tags: ['busy'],
      invoke: {
        id: 'resumeJob',
        src: 'resumeJob',
        input: ({ context }) => ({ importId: context.job!.id }),
        onDone: { target: 'settled', actions: { type: 'storeJob', params: ({ event }) => ({ view: event.output }) } },
        onError: { target: 'interrupted', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    /** The import's parsed rows are deleted on the server (profiles already added stay), then a new file. */
    discarding: {
      tags: ['busy'],
      invoke: {
        id: 'discardJob',
        src: 'discardJob',
        input: ({ context }) => ({ importId: context.job!.id }),
        onDone: { target: 'choosing', actions: 'startOver' },
        // The API client has told the user; the rows are left to the server and the screen moves on.
        onError: { target: 'choosing', actions: 'startOver' },
      },
    },

    /** The confirmation was refused or failed but the approval may still be good: send it again, or go back to the preview. */
    addFailed: {
      on: {
        'add.retry': { target: 'confirming', actions: 'clearError' },
        'failure.dismiss': { target: 'parsed', actions: 'clearError' },
        'import.startOver': { target: 'discarding' },
      },
    },
    /**
     * The approval ran out before Confirm: upload the same file again for a new one, the choices
     * kept, the old import discarded on the way; a job continued from the list has no file to read
     * again (Start over).
     */
    tokenExpired: {
      on: {
        'file.parseAgain': { guard: 'hasFile', target: 'uploading', actions: [{ type: 'discardQuietly', params: ({ context }) => ({ importId: context.job!.id }) }, 'forgetJob'] },
        'import.startOver': { target: 'discarding' },
      },
    },
    /** The server refused the approval for good (used, another case, another user, not valid). */
    refused: {
      on: { 'import.startOver': { target: 'discarding' } },
    },
    /** The job could not be read (network, 404): read it again, or leave it and start over. */
    unreachable: {
      on: {
        // Read at once; `settled` then sends it to the state that draws it (a running job is followed again).
        'job.refresh': { target: 'opening', actions: 'clearError' },
        'import.startOver': [{ guard: 'hasSettledJob', target: 'discarding' }, { target: 'choosing', actions: 'startOver' }],
      },
    },
  },
});
