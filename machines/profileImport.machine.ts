import { assertEvent } from 'xstate';
import { IMPORT_PAGE_SIZE, addRequest, initialImportContext } from './profileImport.context';
import { profileImportSetup } from './profileImport.setup';

export * from './profileImport.calls';
export * from './profileImport.context';
export * from './profileImport.groups';
export { IMPORT_POLL_MS } from './profileImport.setup';

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

export const profileImportMachine = profileImportSetup.createMachine({
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
            input: ({ context }) => ({ importId: context.job!.id, page: context.page, pageSize: IMPORT_PAGE_SIZE, filter: context.filter, chemistryId: context.assignment.chemistryId }),
            onDone: { target: 'ready', actions: { type: 'storePage', params: ({ event }) => ({ page: event.output }) } },
            onError: { target: 'pageFailed', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        /** The page shown is the page read: its rows may be left out. */
        ready: {
          on: {
            'profile.toggle': { guard: 'canToggle', actions: 'toggleProfile' },
            'replicate.join': { guard: 'canJoin', actions: 'joinReplicate' },
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
        // Another kit weighs the page's peak heights differently (its thresholds and sizes): the page is read again.
        'assignment.change': [{ guard: 'kitChangedUnderHeights', target: '.loadingPage', actions: ['clearError', 'changeAssignment'] }, { actions: 'changeAssignment' }],
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
