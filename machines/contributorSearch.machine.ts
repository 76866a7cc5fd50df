import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { ContinuousLrBody, ContinuousModelSwitches, ContributorSearchJob, ContributorSearchJobModel, ContributorSearchStart } from '../core/schemas/continuous';
import { MAX_CONTINUOUS_CONTRIBUTORS } from '../core/schemas/continuous';
import { toEditorError, type EditorError } from './recordEditor.machine';

/**
 * The number-of-contributors search of the Continuous mixture calculator (issue 31; EuroForMix's model search): the
 * contributor counts from..to, each fitted without and, as chosen, with degradation and stutter; Start sends the
 * calculator's choices (POST continuous-lr/contributor-search), the job is read every POLL until it ends, Cancel
 * stops it (the models fitted so far stay). Pure: starting, reading and cancelling are injected actors, the delay a
 * named one.
 */

/** Which parts of the model the search also tries: each on beside off. */
export type SearchVariant = 'degradation' | 'backwardStutter' | 'forwardStutter';

export interface ContributorSearchContext {
  from: number;
  to: number;
  variants: Record<SearchVariant, boolean>;
  /** Why Start could not send (the calculator's missing choices), shown until the next Start. */
  blockers: string[];
  job: ContributorSearchJob | null;
  error: EditorError | null;
}

export type ContributorSearchEvent =
  | { type: 'range.choose'; from: number; to: number }
  | { type: 'variant.check'; variant: SearchVariant; checked: boolean }
  /** Start with the calculator's request as it stands, or the reasons it cannot be sent. */
  | { type: 'search.start'; request: ContinuousLrBody | null; blockers: readonly string[] }
  | { type: 'search.cancel' }
  /** After a failure: read the job again (it may still run), or start again when none started. */
  | { type: 'search.retry' }
  | { type: 'search.clear' };

/** The models the search fits: degradation off and (if chosen) on, times no stutter, backward, and backward with forward. */
export function searchedModels(variants: Record<SearchVariant, boolean>): ContinuousModelSwitches[] {
  const degradation = variants.degradation ? [false, true] : [false];
  const stutters: [boolean, boolean][] = [[false, false]];
  if (variants.backwardStutter || variants.forwardStutter) stutters.push([true, false]);
  // Forward stutter needs the backward stutter model (EuroForMix).
  if (variants.forwardStutter) stutters.push([true, true]);
  return degradation.flatMap((d) => stutters.map(([backwardStutter, forwardStutter]) => ({ degradation: d, backwardStutter, forwardStutter })));
}

/** A model as the table names it. */
export function modelName(model: ContinuousModelSwitches): string {
  const parts = [model.degradation && 'degradation', model.forwardStutter ? 'backward and forward stutter' : model.backwardStutter && 'backward stutter'].filter(Boolean);
  return parts.length > 0 ? `With ${parts.join(', ')}` : 'No degradation, no stutter';
}

/** The job's request: the calculator's choices fitted (its own seed and starts when it fits), for each count and model. */
export function contributorSearchBody(request: ContinuousLrBody, context: Pick<ContributorSearchContext, 'from' | 'to' | 'variants'>): ContributorSearchStart {
  const parameters = request.parameters.mode === 'fit' ? request.parameters : { mode: 'fit' as const, starts: 4, seed: 1 };
  return { ...request, parameters, contributorSearch: { from: context.from, to: context.to, models: searchedModels(context.variants) } };
}

/** A job no longer running. */
export const jobEnded = (job: ContributorSearchJob | null): boolean => job !== null && job.state !== 'running';

/** The models a user may take into the calculator: fitted ones with figures. */
export const usableModel = (m: ContributorSearchJobModel): boolean => m.state === 'fitted' && m.logLikelihoodHd !== null;

const notProvided = async (): Promise<never> => {
  throw new Error('contributorSearchMachine: provide startSearch, readSearch and cancelSearch (the calculator screen)');
};

export const initialContributorSearch = (): ContributorSearchContext => ({
  from: 1,
  to: 3,
  variants: { degradation: false, backwardStutter: false, forwardStutter: false },
  blockers: [],
  job: null,
  error: null,
});

const SETTINGS = {
  'range.choose': { guard: 'rangeValid', actions: 'chooseRange' },
  'variant.check': { actions: 'checkVariant' },
} as const;
const START = [
  { guard: 'requestReady' as const, target: '#contributorSearch.starting', actions: 'startFresh' as const },
  { actions: 'keepBlockers' as const },
];

export const contributorSearchMachine = setup({
  types: {
    context: {} as ContributorSearchContext,
    events: {} as ContributorSearchEvent,
    tags: {} as 'busy',
  },
  actors: {
    startSearch: fromPromise<ContributorSearchJob, ContributorSearchStart>(notProvided),
    readSearch: fromPromise<ContributorSearchJob, { id: string }>(notProvided),
    cancelSearch: fromPromise<ContributorSearchJob, { id: string }>(notProvided),
  },
  delays: {
    /** How often a running job is read. */
    POLL: 1000,
  },
  guards: {
    rangeValid: ({ event }) => event.type === 'range.choose' && Number.isInteger(event.from) && Number.isInteger(event.to) && event.from >= 1 && event.from <= event.to && event.to <= MAX_CONTINUOUS_CONTRIBUTORS,
    requestReady: ({ event }) => event.type === 'search.start' && event.request !== null && event.blockers.length === 0,
    ended: ({ context }) => jobEnded(context.job),
    hasJob: ({ context }) => context.job !== null,
  },
  actions: {
    chooseRange: assign(({ event }) => {
      assertEvent(event, 'range.choose');
      return { from: event.from, to: event.to };
    }),
    checkVariant: assign(({ context, event }) => {
      assertEvent(event, 'variant.check');
      return { variants: { ...context.variants, [event.variant]: event.checked } };
    }),
    startFresh: assign({ blockers: [], job: null, error: null }),
    keepBlockers: assign(({ event }) => {
      assertEvent(event, 'search.start');
      return { blockers: event.blockers.length > 0 ? [...event.blockers] : ['The calculator’s choices cannot be sent yet'] };
    }),
  },
}).createMachine({
  id: 'contributorSearch',
  context: initialContributorSearch,
  initial: 'idle',
  states: {
    idle: { on: { ...SETTINGS, 'search.start': START } },
    starting: {
      tags: ['busy'],
      invoke: {
        src: 'startSearch',
        input: ({ context, event }) => {
          assertEvent(event, 'search.start');
          return contributorSearchBody(event.request!, context);
        },
        onDone: { target: 'running', actions: assign({ job: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => toEditorError(event.error) }) },
      },
    },
    /** The job runs: read again after POLL; Cancel stops it. */
    running: {
      tags: ['busy'],
      always: { guard: 'ended', target: 'finished' },
      after: { POLL: 'reading' },
      on: { 'search.cancel': 'cancelling' },
    },
    reading: {
      tags: ['busy'],
      invoke: {
        src: 'readSearch',
        input: ({ context }) => ({ id: context.job!.id }),
        onDone: { target: 'running', actions: assign({ job: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => toEditorError(event.error) }) },
      },
      on: { 'search.cancel': 'cancelling' },
    },
    cancelling: {
      tags: ['busy'],
      invoke: {
        src: 'cancelSearch',
        input: ({ context }) => ({ id: context.job!.id }),
        onDone: { target: 'finished', actions: assign({ job: ({ event }) => event.output }) },
        // The job may have ended meanwhile (409): reading it says how.
        onError: { target: 'reading' },
      },
    },
    /** Done, cancelled or failed: the models side by side, the best marked; a model may be used. */
    finished: { on: { ...SETTINGS, 'search.start': START, 'search.clear': { target: 'idle', actions: assign({ job: null }) } } },
    /** Starting or reading failed: the reason; Try again reads the job again, or starts when none started. */
    failed: {
      on: {
        ...SETTINGS,
        'search.start': START,
        'search.retry': [{ guard: 'hasJob', target: 'reading', actions: assign({ error: null }) }],
        'search.clear': { target: 'idle', actions: assign({ job: null, error: null }) },
      },
    },
  },
});
