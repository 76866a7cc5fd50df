import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { joinGroup, leaveGroup } from './profileImport.groups';
import type { ProfileImportJob } from '../core/schemas/profile-imports';
import {
  APPROVAL_EXPIRED_MESSAGE,
  toImportError,
  type AddImportRequest,
  type JobRequest,
  type JobView,
  type PageRequest,
  type RowsPage,
  type UnfinishedRequest,
  type UploadRequest,
} from './profileImport.calls';
import {
  IMPORT_PAGE_SIZE,
  commonSampleType,
  initialImportContext,
  listedJob,
  nextProgressMark,
  toggleable,
  type ProfileImportContext,
  type ProfileImportEvent,
  type ProfileImportInput,
  type ProfileImportTag,
} from './profileImport.context';
import { profileImportGuards } from './profileImport.guards';

/** How long the screen waits between two reads of a running job. */
export const IMPORT_POLL_MS = 700;

const notProvided = async (): Promise<never> => {
  throw new Error('profileImportMachine: provide this actor (the profile import screen)');
};

/** The types, calls, delays, guards and actions the profile import chart names (profileImport.machine.ts). */
export const profileImportSetup = setup({
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
  guards: profileImportGuards,
  actions: {
    // A new file starts a new import: nothing of the previous one is kept.
    storeFile: assign(({ context, event }) => {
      assertEvent(event, 'file.selected');
      return { ...initialImportContext(context.caseId), file: event.file };
    }),
    // The same file again for a new approval: the choices stay.
    forgetJob: assign({ job: null, token: null, rows: [], rowCount: 0, page: 0, filter: 'all' as const, error: null }),
    storeJob: assign(({ context }, params: { view: JobView }) => ({
      job: params.view.job,
      token: params.view.token,
      progressMark: nextProgressMark(context.progressMark, params.view.job),
    })),
    // The first preview: the whole file's list, the suggested kit for a chemistry not chosen yet, and
    // only left-out profiles that the (new) file still holds.
    showAll: assign(({ context }) => {
      const job = context.job!;
      const chemistryId = context.assignment.chemistryId ?? job.suggestedChemistryId;
      return {
        page: 0,
        filter: 'all' as const,
        excluded: new Set([...context.excluded].filter((i) => i < job.profileCount)),
        groups: context.groups.filter((g) => g.every((i) => i < job.profileCount)),
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
    toggleProfile: assign(({ context, event }) => {
      assertEvent(event, 'profile.toggle');
      const excluded = new Set(context.excluded);
      if (!excluded.delete(event.index)) excluded.add(event.index);
      // A profile left out is no one's replicate either.
      return { excluded, groups: leaveGroup(context.groups, event.index) };
    }),
    joinReplicate: assign({
      groups: ({ context, event }) => {
        assertEvent(event, 'replicate.join');
        return joinGroup(context.groups, event.index, event.with);
      },
    }),
    leaveOutPage: assign({
      excluded: ({ context }) => new Set([...context.excluded, ...context.rows.filter(toggleable).map((r) => r.index)]),
      groups: ({ context }) => context.rows.filter(toggleable).reduce<number[][]>((groups, r) => leaveGroup(groups, r.index), context.groups.map((g) => [...g])),
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
});
