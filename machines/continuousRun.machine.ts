import { and, assertEvent, assign, fromPromise, not, setup, stateIn } from 'xstate';
import type { ContinuousLrBody, ContinuousLrResult, ContinuousModelSwitches } from '../core/schemas/continuous';
import { MAX_CONTINUOUS_CONTRIBUTORS } from '../core/schemas/continuous';
import {
  DEFAULT_THRESHOLD,
  continuousDraft,
  fieldName,
  readContinuousDraft,
  withContributorCount,
  withFixed,
  withModel,
  withSwitch,
  type ContinuousDraft,
  type ContinuousSwitch,
  type ContinuousTextField,
  type GammaField,
  type Hypothesis,
} from './continuousRun.draft';
import { kitFragmentSizes, kitThresholds, replicatesBody, stainReplicates, type LoadedStain } from './continuousRun.stain';
import { toEditorError, type EditorError } from './recordEditor.machine';
import { runActions, runStates } from './runStates';

export * from './continuousRun.draft';
export * from './continuousRun.stain';

/**
 * The Continuous mixture calculator (issue 31, GENETICS.md "Continuous model"): choose the stain (its replicates with
 * peak heights are read, with its kit's thresholds and fragment sizes), the person of interest, known contributors
 * and known non-contributors, one population, the model's switches and either fixed parameters or a fit; Run checks
 * the choices and sends POST continuous-lr (cancellable); the result or the failure shows. Two regions: the stain's
 * reading and the run. Changing a choice drops the result, so the numbers shown belong to the choices shown.
 * Pure: reading the stain and weighing are injected actors.
 */

export interface ContinuousRunInput {
  analysisId: string;
  /** Choices the calculator opens with (a continuous hit's "Open in the calculator"): the stain is read at once. */
  prefill?: ContinuousPrefill;
}

/** A stain, person of interest and population chosen before the calculator opens; each may be left out. */
export interface ContinuousPrefill {
  stainId?: string | null;
  personOfInterestId?: string | null;
  populationId?: string | null;
}

/** Persons besides the person of interest: contributors under both hypotheses, and typed non-contributors (θ's counts). */
export type PersonList = 'knownContributors' | 'knownNonContributors';

export interface ContinuousRunContext {
  analysisId: string;
  stainId: string | null;
  stain: LoadedStain | null;
  stainError: EditorError | null;
  /** Which of the stain's replicates the run weighs, in the profile's order. */
  replicatesChosen: boolean[];
  personOfInterestId: string | null;
  knownContributors: (string | null)[];
  knownNonContributors: (string | null)[];
  populationId: string | null;
  draft: ContinuousDraft;
  result: ContinuousLrResult | null;
  error: EditorError | null;
  /** Set when Run was pressed with choices missing: the screen then lists `continuousBlockers`. */
  showBlockers: boolean;
}

export type ContinuousRunEvent =
  | { type: 'stain.choose'; profileId: string | null }
  | { type: 'stain.retry' }
  | { type: 'replicate.toggle'; index: number }
  | { type: 'personOfInterest.choose'; profileId: string | null }
  | { type: 'person.add'; list: PersonList }
  | { type: 'person.choose'; list: PersonList; index: number; profileId: string | null }
  | { type: 'person.remove'; list: PersonList; index: number }
  | { type: 'population.choose'; populationId: string }
  | { type: 'parameters.edit'; field: ContinuousTextField; value: string }
  | { type: 'parameters.check'; field: ContinuousSwitch; checked: boolean }
  | { type: 'parameters.chooseMode'; mode: ContinuousDraft['mode'] }
  | { type: 'parameters.chooseThreshold'; threshold: ContinuousDraft['threshold'] }
  | { type: 'parameters.editFixed'; hypothesis: Hypothesis; field: GammaField; index?: number; value: string }
  | { type: 'parameters.reset' }
  /** A model of the number-of-contributors search chosen: its contributor count and switches, fitted. */
  | { type: 'model.use'; contributors: number; model: ContinuousModelSwitches }
  | { type: 'run.start' }
  | { type: 'run.cancel' }
  | { type: 'run.retry' }
  | { type: 'failure.dismiss' };

/** Tags the view asks with hasTag: `busy` while weighing, `stainLoading` while the stain is read. */
export type ContinuousRunTag = 'busy' | 'stainLoading';

/** Most known non-contributors a run takes (ContinuousLrBody). */
export const MAX_KNOWN_NON_CONTRIBUTORS = 10;
/** Most known contributors: the contributors less the person of interest. */
export const MAX_CONTINUOUS_KNOWN = MAX_CONTINUOUS_CONTRIBUTORS - 1;
const LIMITS: Record<PersonList, number> = { knownContributors: MAX_CONTINUOUS_KNOWN, knownNonContributors: MAX_KNOWN_NON_CONTRIBUTORS };

/** How a listed person reads on screen and in Run's list. */
export const personLabel = (list: PersonList, index: number): string => `${list === 'knownContributors' ? 'Known contributor' : 'Known non-contributor'} ${index + 1}`;

type Choices = Omit<ContinuousRunContext, 'result' | 'error' | 'showBlockers' | 'analysisId'>;

/** What keeps Run from sending, worded for the screen; empty when the run may go. */
export function continuousBlockers(c: Choices): string[] {
  const blockers: string[] = [];
  if (!c.stainId) blockers.push('Choose a profile for Evidence');
  else if (c.stainError) blockers.push(`The evidence could not be read: ${c.stainError.message}`);
  else if (!c.stain) blockers.push('The evidence is still being read');
  else {
    const replicates = stainReplicates(c.stain);
    if (replicates.every((r) => r.peaks === 0)) blockers.push(`${c.stain.profile.profileId} has no peak heights: the continuous model weighs them (import the stain's file with its heights)`);
    else if (!replicates.some((r, i) => c.replicatesChosen[i] && r.peaks > 0)) blockers.push('Choose at least one replicate of the evidence with peak heights');
  }
  if (!c.personOfInterestId) blockers.push('Choose a profile for Person of interest');
  for (const list of ['knownContributors', 'knownNonContributors'] as const) c[list].forEach((id, i) => id || blockers.push(`Choose a profile for ${personLabel(list, i)}, or remove it`));
  const chosen = [c.stainId, c.personOfInterestId, ...c.knownContributors, ...c.knownNonContributors].filter((id): id is string => id !== null);
  if (new Set(chosen).size < chosen.length) blockers.push('Choose a different profile for the evidence and each person');
  if (!c.populationId) blockers.push('Choose a population');
  const read = readContinuousDraft(c.draft, c.knownContributors.length);
  if (read.errors) blockers.push(...Object.entries(read.errors).map(([key, message]) => `${fieldName(key)}: ${message}`));
  return blockers;
}

/** The request for the current choices (call only when continuousBlockers is empty). */
export function continuousLrBody(c: Choices): ContinuousLrBody {
  const { settings } = readContinuousDraft(c.draft, c.knownContributors.length);
  const stain = c.stain!;
  const replicates = replicatesBody(stain, c.replicatesChosen);
  const kit = kitThresholds(stain.kit, DEFAULT_THRESHOLD);
  const { analyticalThreshold, ...rest } = settings!;
  const markers = new Set(replicates.flatMap((r) => r.markers.map((m) => m.marker)));
  return {
    ...rest,
    replicates,
    personOfInterest: { profileId: c.personOfInterestId! },
    knownContributors: c.knownContributors.map((profileId) => ({ profileId: profileId! })),
    knownNonContributors: c.knownNonContributors.map((profileId) => ({ profileId: profileId! })),
    populationId: c.populationId!,
    analyticalThreshold: analyticalThreshold ?? kit.analyticalThreshold,
    markerThresholds: analyticalThreshold === null ? kit.markerThresholds : [],
    fragmentSizes: settings!.model.degradation ? kitFragmentSizes(stain.kit, markers) : [],
    deconvolution: true,
  };
}

/** The context a calculator starts with. */
export function initialContinuousContext(input: ContinuousRunInput): ContinuousRunContext {
  return {
    analysisId: input.analysisId,
    stainId: input.prefill?.stainId ?? null,
    stain: null,
    stainError: null,
    replicatesChosen: [],
    personOfInterestId: input.prefill?.personOfInterestId ?? null,
    knownContributors: [],
    knownNonContributors: [],
    populationId: input.prefill?.populationId ?? null,
    draft: continuousDraft(),
    result: null,
    error: null,
    showBlockers: false,
  };
}

const notProvided = async (): Promise<never> => {
  throw new Error('continuousRunMachine: provide the loadStain and weigh actors (the calculator screen)');
};

/** A choice changed: the result or failure of the old choices goes. */
const changed = <T extends Partial<ContinuousRunContext>>(change: T) => ({ ...change, result: null, error: null });

/** Changing a choice, in every run state but running. */
const CHOICES = {
  'stain.choose': { target: '#continuousRun.run.editing', actions: 'chooseStain' },
  'replicate.toggle': { guard: 'replicateExists', target: '#continuousRun.run.editing', actions: 'toggleReplicate' },
  'personOfInterest.choose': { target: '#continuousRun.run.editing', actions: 'choosePersonOfInterest' },
  'person.add': { guard: 'canAddPerson', target: '#continuousRun.run.editing', actions: 'addPerson' },
  'person.choose': { guard: 'personExists', target: '#continuousRun.run.editing', actions: 'choosePerson' },
  'person.remove': { guard: 'personExists', target: '#continuousRun.run.editing', actions: 'removePerson' },
  'population.choose': { target: '#continuousRun.run.editing', actions: 'choosePopulation' },
  'parameters.edit': { target: '#continuousRun.run.editing', actions: 'editParameter' },
  'parameters.check': { target: '#continuousRun.run.editing', actions: 'checkParameter' },
  'parameters.chooseMode': { target: '#continuousRun.run.editing', actions: 'chooseMode' },
  'parameters.chooseThreshold': { target: '#continuousRun.run.editing', actions: 'chooseThreshold' },
  'parameters.editFixed': { guard: 'fixedFieldExists', target: '#continuousRun.run.editing', actions: 'editFixed' },
  'parameters.reset': { target: '#continuousRun.run.editing', actions: 'resetParameters' },
  'model.use': { guard: 'modelFits', target: '#continuousRun.run.editing', actions: 'useModel' },
} as const;

export const continuousRunMachine = setup({
  types: {
    context: {} as ContinuousRunContext,
    events: {} as ContinuousRunEvent,
    input: {} as ContinuousRunInput,
    tags: {} as ContinuousRunTag,
  },
  actors: {
    loadStain: fromPromise<LoadedStain, { profileId: string }>(notProvided),
    weigh: fromPromise<ContinuousLrResult, ContinuousLrBody>(notProvided),
  },
  guards: {
    hasBlockers: ({ context }) => continuousBlockers(context).length > 0,
    stainChosen: ({ event }) => event.type === 'stain.choose' && event.profileId !== null,
    // Only a prefilled stain is chosen while nothing is read: choosing one otherwise goes straight to loading.
    stainPrefilled: ({ context }) => context.stainId !== null,
    notRunning: not(stateIn('#continuousRun.run.running')),
    replicateExists: ({ context, event }) => event.type === 'replicate.toggle' && event.index >= 0 && event.index < context.replicatesChosen.length,
    canAddPerson: ({ context, event }) => event.type === 'person.add' && context[event.list].length < LIMITS[event.list],
    personExists: ({ context, event }) => (event.type === 'person.choose' || event.type === 'person.remove') && event.index >= 0 && event.index < context[event.list].length,
    modelFits: ({ context, event }) => event.type === 'model.use' && event.contributors > context.knownContributors.length && event.contributors <= MAX_CONTINUOUS_CONTRIBUTORS,
    fixedFieldExists: ({ context, event }) => event.type === 'parameters.editFixed' && (event.field !== 'mx' || ((event.index ?? 0) >= 0 && (event.index ?? 0) < context.draft.fixed[event.hypothesis].mx.length)),
  },
  actions: {
    chooseStain: assign(({ event }) => {
      assertEvent(event, 'stain.choose');
      return changed({ stainId: event.profileId, stain: null, stainError: null, replicatesChosen: [] });
    }),
    toggleReplicate: assign(({ context, event }) => {
      assertEvent(event, 'replicate.toggle');
      return changed({ replicatesChosen: context.replicatesChosen.map((on, i) => (i === event.index ? !on : on)) });
    }),
    choosePersonOfInterest: assign(({ event }) => {
      assertEvent(event, 'personOfInterest.choose');
      return changed({ personOfInterestId: event.profileId });
    }),
    addPerson: assign(({ context, event }) => {
      assertEvent(event, 'person.add');
      return changed({ [event.list]: [...context[event.list], null] });
    }),
    choosePerson: assign(({ context, event }) => {
      assertEvent(event, 'person.choose');
      return changed({ [event.list]: context[event.list].map((id, i) => (i === event.index ? event.profileId : id)) });
    }),
    removePerson: assign(({ context, event }) => {
      assertEvent(event, 'person.remove');
      return changed({ [event.list]: context[event.list].filter((_, i) => i !== event.index) });
    }),
    choosePopulation: assign(({ event }) => {
      assertEvent(event, 'population.choose');
      return changed({ populationId: event.populationId });
    }),
    editParameter: assign(({ context, event }) => {
      assertEvent(event, 'parameters.edit');
      return changed({ draft: event.field === 'contributors' ? withContributorCount(context.draft, event.value) : { ...context.draft, [event.field]: event.value } });
    }),
    checkParameter: assign(({ context, event }) => {
      assertEvent(event, 'parameters.check');
      return changed({ draft: withSwitch(context.draft, event.field, event.checked) });
    }),
    chooseMode: assign(({ context, event }) => {
      assertEvent(event, 'parameters.chooseMode');
      return changed({ draft: { ...context.draft, mode: event.mode } });
    }),
    chooseThreshold: assign(({ context, event }) => {
      assertEvent(event, 'parameters.chooseThreshold');
      return changed({ draft: { ...context.draft, threshold: event.threshold } });
    }),
    editFixed: assign(({ context, event }) => {
      assertEvent(event, 'parameters.editFixed');
      return changed({ draft: withFixed(context.draft, event.hypothesis, event.field, event.value, event.index) });
    }),
    resetParameters: assign(() => changed({ draft: continuousDraft() })),
    useModel: assign(({ context, event }) => {
      assertEvent(event, 'model.use');
      return changed({ draft: withModel(context.draft, event.contributors, event.model) });
    }),
    ...runActions<ContinuousRunContext, ContinuousRunEvent, ContinuousLrResult>(),
  },
}).createMachine({
  id: 'continuousRun',
  context: ({ input }) => initialContinuousContext(input),
  type: 'parallel',
  states: {
    /** The chosen stain's reading: its replicates with heights and its kit. */
    stain: {
      initial: 'none',
      on: {
        'stain.choose': [
          { guard: and(['notRunning', 'stainChosen']), target: '.loading', reenter: true },
          { guard: 'notRunning', target: '.none' },
        ],
      },
      states: {
        none: { always: { guard: 'stainPrefilled', target: 'loading' } },
        loading: {
          tags: ['stainLoading'],
          invoke: {
            src: 'loadStain',
            input: ({ context }) => ({ profileId: context.stainId! }),
            onDone: {
              target: 'ready',
              // Every replicate with heights is weighed unless the user leaves it out.
              actions: assign(({ event }) => ({ stain: event.output, stainError: null, replicatesChosen: stainReplicates(event.output).map((r) => r.peaks > 0) })),
            },
            onError: { target: 'failed', actions: assign(({ event }) => ({ stainError: toEditorError(event.error) })) },
          },
        },
        ready: {},
        failed: {
          on: { 'stain.retry': { guard: 'notRunning', target: 'loading', actions: assign({ stainError: null }) } },
        },
      },
    },
    run: {
      initial: 'editing',
      states: runStates(CHOICES, 'weigh', ({ context }: { context: ContinuousRunContext }) => continuousLrBody(context)),
    },
  },
});
