import { assign, fromPromise, setup } from 'xstate';
import type { SelfComparisonJob } from '../core/schemas/self-comparison';
import { toEditorError, type EditorError } from './recordEditor.machine';

/**
 * The database self-comparison screen (issue 15): on opening, the organization's last comparison is
 * read (one may be running, started by a colleague or before a reload); the user chooses the
 * chemistry and the parameters and starts one; while it runs its progress is polled and it may be
 * cancelled; a finished one shows its report (the table pages itself) or says why it stopped.
 * Pure: the calls are injected actors and the poll interval a named delay.
 */

/** A comparison as the form sends it. */
export interface SelfComparisonRequest {
  chemistryId: string;
  maxDifferences: number;
  minEqualMarkers: number;
}

export interface SelfComparisonContext {
  orgId: string;
  /** The last job read from the server (null: none since the server started). */
  job: SelfComparisonJob | null;
  /** The last request sent, so a failed start can be sent again. */
  request: SelfComparisonRequest | null;
  error: EditorError | null;
}

export type SelfComparisonEvent =
  | { type: 'comparison.start'; request: SelfComparisonRequest }
  | { type: 'comparison.cancel' }
  | { type: 'load.retry' }
  | { type: 'start.retry' }
  | { type: 'failure.dismiss' };

/** `form`: the form may be used; `busy`: a call is under way; `running`: a comparison runs on the server. */
export type SelfComparisonTag = 'form' | 'busy' | 'running';

const notProvided = (name: string) => async (): Promise<never> => {
  throw new Error(`selfComparisonMachine: provide the "${name}" actor (src/self-comparison/self-comparison-page.tsx)`);
};

export const selfComparisonMachine = setup({
  types: {
    context: {} as SelfComparisonContext,
    events: {} as SelfComparisonEvent,
    input: {} as { orgId: string },
    tags: {} as SelfComparisonTag,
  },
  actors: {
    /** The organization's last job, or null when there is none (404). */
    loadJob: fromPromise<SelfComparisonJob | null, { orgId: string }>(notProvided('loadJob')),
    startJob: fromPromise<SelfComparisonJob, { orgId: string; request: SelfComparisonRequest }>(notProvided('startJob')),
    cancelJob: fromPromise<SelfComparisonJob, { orgId: string }>(notProvided('cancelJob')),
  },
  delays: { pollInterval: 1000 },
  guards: {
    noJob: ({ context }) => context.job === null,
    jobRunning: ({ context }) => context.job?.state === 'running',
    jobDone: ({ context }) => context.job?.state === 'done',
    hasRequest: ({ context }) => context.request !== null,
  },
  actions: {
    send: assign(({ event }) => (event.type === 'comparison.start' ? { request: event.request, error: null } : {})),
    clearError: assign({ error: null }),
  },
}).createMachine({
  id: 'selfComparison',
  context: ({ input }) => ({ orgId: input.orgId, job: null, request: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        src: 'loadJob',
        input: ({ context }) => ({ orgId: context.orgId }),
        onDone: { target: 'settled', actions: assign({ job: ({ event }) => event.output }) },
        onError: { target: 'loadFailed', actions: assign({ error: ({ event }) => toEditorError(event.error) }) },
      },
    },
    loadFailed: {
      on: { 'load.retry': { target: 'loading', actions: 'clearError' } },
    },
    /** Where the job read leads: the form, the progress, the report, or the end of a stopped run. */
    settled: {
      always: [{ guard: 'noJob', target: 'idle' }, { guard: 'jobRunning', target: 'running' }, { guard: 'jobDone', target: 'report' }, { target: 'stopped' }],
    },
    idle: {
      tags: ['form'],
      on: { 'comparison.start': { target: 'starting', actions: 'send' } },
    },
    starting: {
      tags: ['busy'],
      invoke: {
        src: 'startJob',
        input: ({ context }) => ({ orgId: context.orgId, request: context.request! }),
        onDone: { target: 'running', actions: assign({ job: ({ event }) => event.output }) },
        onError: { target: 'startFailed', actions: assign({ error: ({ event }) => toEditorError(event.error) }) },
      },
    },
    /** Refused (409: one runs already; 400; 503 while the index loads) or failed: the form stays filled. */
    startFailed: {
      tags: ['form'],
      on: {
        'comparison.start': { target: 'starting', actions: 'send' },
        'start.retry': { guard: 'hasRequest', target: 'starting', actions: 'clearError' },
        // Someone else's run may be why it was refused: read the job again.
        'failure.dismiss': { target: 'loading', actions: 'clearError' },
      },
    },
    running: {
      tags: ['running'],
      initial: 'waiting',
      on: { 'comparison.cancel': '.cancelling' },
      states: {
        waiting: { after: { pollInterval: 'polling' } },
        polling: {
          invoke: {
            src: 'loadJob',
            input: ({ context }) => ({ orgId: context.orgId }),
            onDone: { target: '#selfComparison.settled', actions: assign({ job: ({ event }) => event.output, error: null }) },
            // A lost poll is tried again at the next interval; the error shows meanwhile.
            onError: { target: 'waiting', actions: assign({ error: ({ event }) => toEditorError(event.error) }) },
          },
        },
        cancelling: {
          tags: ['busy'],
          on: { 'comparison.cancel': {} },
          invoke: {
            src: 'cancelJob',
            input: ({ context }) => ({ orgId: context.orgId }),
            // The worker stops at once; the next poll reads the job cancelled.
            onDone: { target: 'polling', actions: assign({ job: ({ event }) => event.output, error: null }) },
            onError: { target: 'polling', actions: assign({ error: ({ event }) => toEditorError(event.error) }) },
          },
        },
      },
    },
    report: {
      tags: ['form'],
      on: { 'comparison.start': { target: 'starting', actions: 'send' } },
    },
    /** Cancelled or failed: the job's message says which; the form may start another. */
    stopped: {
      tags: ['form'],
      on: { 'comparison.start': { target: 'starting', actions: 'send' } },
    },
  },
});
