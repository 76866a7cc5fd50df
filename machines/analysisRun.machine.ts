import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { AnalysisKind, AnalysisResult, AnalyzeBody } from '../core/schemas/analyses';
import { toEditorError, type EditorError } from './recordEditor.machine';

/**
 * Running an analysis in the calculator (spec 2.5; issue 5): choose a profile for each role and, for
 * a computational or pedigree analysis (issue 16), one or more populations; Run checks the choices (validating), sends
 * `POST analyses/{id}/analyze` (running, cancellable) and shows the result or the failure. Changing
 * a choice after a result drops it, so the numbers on screen always belong to the choices shown.
 * Pure: the call is an injected actor.
 */

/** The part of the analysis the calculator needs. */
export interface RunAnalysis {
  id: string;
  kind: AnalysisKind;
  roles: readonly string[];
}

export interface AnalysisRunInput {
  analysis: RunAnalysis;
  /** Preselected profiles per role (null: none yet), e.g. from the case the calculator was opened for. */
  profileIds?: readonly (string | null)[];
  populationIds?: readonly string[];
}

/** The `analyze` actor's input: the analysis and the request body. */
export interface AnalyzeRequest {
  analysisId: string;
  body: AnalyzeBody;
}

export interface AnalysisRunContext {
  analysis: RunAnalysis;
  /** One entry per role, in role order. */
  profileIds: (string | null)[];
  populationIds: string[];
  result: AnalysisResult | null;
  error: EditorError | null;
  /** Set when Run was pressed with choices missing: the screen then lists `runBlockers`. */
  showBlockers: boolean;
}

export type AnalysisRunEvent =
  /** The profile for role `role` (index into the analysis's roles); null clears it. */
  | { type: 'profile.choose'; role: number; profileId: string | null }
  | { type: 'population.toggle'; populationId: string }
  | { type: 'run.start' }
  /** Stop waiting for the analysis; the request is aborted and the choices stay. */
  | { type: 'run.cancel' }
  /** Send the same request again after a failure. */
  | { type: 'run.retry' }
  | { type: 'failure.dismiss' };

/** Tags the view asks with hasTag: `busy` while the analysis runs. */
export type AnalysisRunTag = 'busy';

/** Computational and pedigree analyses compute over populations; spec 7.1: an exclusion analysis carries none. */
export const usesPopulations = (kind: AnalysisKind): boolean => kind !== 'Exclusion';

/** What keeps Run from sending, worded for the screen; empty when the analysis may run. */
export function runBlockers(context: Pick<AnalysisRunContext, 'analysis' | 'profileIds' | 'populationIds'>): string[] {
  const { analysis, profileIds, populationIds } = context;
  const blockers = analysis.roles.flatMap((role, i) => (profileIds[i] ? [] : [`Choose a profile for ${role}`]));
  const chosen = profileIds.filter((id): id is string => id !== null);
  // One sample in two roles compares it with itself: a number no court should see.
  if (new Set(chosen).size < chosen.length) blockers.push('Choose a different profile for each role');
  if (usesPopulations(analysis.kind) && populationIds.length === 0) blockers.push('Choose at least one population');
  return blockers;
}

/** The analyze request for the current choices (call only when runBlockers is empty). */
export function analyzeRequest(context: Pick<AnalysisRunContext, 'analysis' | 'profileIds' | 'populationIds'>): AnalyzeRequest {
  const { analysis, profileIds, populationIds } = context;
  return {
    analysisId: analysis.id,
    body: { profileIds: profileIds.map((id) => id!), populationIds: usesPopulations(analysis.kind) ? [...populationIds] : [] },
  };
}

/** The context a calculator starts with. */
export function initialRunContext(input: AnalysisRunInput): AnalysisRunContext {
  const { analysis } = input;
  return {
    analysis,
    profileIds: analysis.roles.map((_, i) => input.profileIds?.[i] ?? null),
    populationIds: [...(input.populationIds ?? [])],
    result: null,
    error: null,
    showBlockers: false,
  };
}

const notProvided = async (): Promise<never> => {
  throw new Error('analysisRunMachine: provide the analyze actor (the calculator screen)');
};

/** Changing a choice: applied in every state but running, dropping a result or failure that belonged to the old choices. */
const CHOICES = {
  'profile.choose': { target: '#analysisRun.editing', actions: 'chooseProfile' },
  'population.toggle': { target: '#analysisRun.editing', actions: 'togglePopulation' },
} as const;

export const analysisRunMachine = setup({
  types: {
    context: {} as AnalysisRunContext,
    events: {} as AnalysisRunEvent,
    input: {} as AnalysisRunInput,
    tags: {} as AnalysisRunTag,
  },
  actors: {
    analyze: fromPromise<AnalysisResult, AnalyzeRequest>(notProvided),
  },
  guards: {
    hasBlockers: ({ context }) => runBlockers(context).length > 0,
  },
  actions: {
    chooseProfile: assign(({ context, event }) => {
      assertEvent(event, 'profile.choose');
      const profileIds = context.profileIds.map((id, i) => (i === event.role ? event.profileId : id));
      return { profileIds, result: null, error: null };
    }),
    togglePopulation: assign(({ context, event }) => {
      assertEvent(event, 'population.toggle');
      const { populationIds } = context;
      const next = populationIds.includes(event.populationId) ? populationIds.filter((id) => id !== event.populationId) : [...populationIds, event.populationId];
      return { populationIds: next, result: null, error: null };
    }),
  },
}).createMachine({
  id: 'analysisRun',
  context: ({ input }) => initialRunContext(input),
  initial: 'editing',
  states: {
    editing: {
      on: { ...CHOICES, 'run.start': 'validating' },
    },
    /** Run was pressed: missing choices keep the user editing, with the reasons shown. */
    validating: {
      always: [
        { guard: 'hasBlockers', target: 'editing', actions: assign({ showBlockers: true }) },
        { target: 'running', actions: assign({ showBlockers: false }) },
      ],
    },
    running: {
      tags: ['busy'],
      invoke: {
        src: 'analyze',
        input: ({ context }) => analyzeRequest(context),
        onDone: { target: 'result', actions: assign({ result: ({ event }) => event.output, error: null }) },
        onError: { target: 'error', actions: assign({ error: ({ event }) => toEditorError(event.error), result: null }) },
      },
      // Leaving the state stops the actor, whose signal aborts the request.
      on: { 'run.cancel': 'editing' },
    },
    result: {
      on: { ...CHOICES, 'run.start': 'validating' },
    },
    /** The analysis failed (e.g. a population was deleted meanwhile): the choices stay. */
    error: {
      on: {
        ...CHOICES,
        'run.retry': { target: 'validating', actions: assign({ error: null }) },
        'failure.dismiss': { target: 'editing', actions: assign({ error: null }) },
      },
    },
  },
});
