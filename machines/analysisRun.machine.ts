import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { AnalysisKind, AnalysisResult, AnalyzeBody } from '../core/schemas/analyses';
import type { MixtureSetting } from '../core/schemas/mixtures';
import type { EditorError } from './recordEditor.machine';
import { runActions, runStates } from './runStates';

/**
 * Running an analysis in the calculator (spec 2.5; issue 5): choose a profile for each role and, for
 * a computational, pedigree or mixture analysis (issues 16, 17), one or more populations; a mixture analysis also takes
 * further replicates of the evidence, known contributors and its parameters for the run (prefilled from the
 * analysis). Run checks the choices (validating), sends
 * `POST analyses/{id}/analyze` (running, cancellable) and shows the result or the failure. Changing
 * a choice after a result drops it, so the numbers on screen always belong to the choices shown.
 * Pure: the call is an injected actor.
 */

/** The part of the analysis the calculator needs. */
export interface RunAnalysis {
  id: string;
  kind: AnalysisKind;
  roles: readonly string[];
  /** A mixture analysis's own parameters, which the run's form starts from. */
  mixture?: MixtureSetting | null;
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
  /** Mixture analyses: further replicates, known contributors and the parameters as typed; null for other kinds. */
  mixture: MixtureRun | null;
  result: AnalysisResult | null;
  error: EditorError | null;
  /** Set when Run was pressed with choices missing: the screen then lists `runBlockers`. */
  showBlockers: boolean;
}

export type AnalysisRunEvent =
  /** The profile for role `role` (index into the analysis's roles); null clears it. */
  | { type: 'profile.choose'; role: number; profileId: string | null }
  | { type: 'population.toggle'; populationId: string }
  /** Mixture analyses: a further replicate of the evidence (Evidence (replicate 2) …), its profile, or its removal. */
  | { type: 'replicate.add' }
  | { type: 'replicate.choose'; index: number; profileId: string | null }
  | { type: 'replicate.remove'; index: number }
  /** Mixture analyses: a known contributor (under Hp and Hd), its profile, or its removal. */
  | { type: 'knownContributor.add' }
  | { type: 'knownContributor.choose'; index: number; profileId: string | null }
  | { type: 'knownContributor.remove'; index: number }
  /** Mixture analyses: a parameter as typed (number of contributors, the drop-out for all, drop-in, θ). */
  | { type: 'parameters.edit'; field: MixtureTextField; value: string }
  /** Mixture analyses: how drop-out is set. */
  | { type: 'parameters.chooseDropout'; dropout: DropoutChoice }
  /** Mixture analyses: the fixed drop-out of one contributor (person of interest, known contributors, unknowns). */
  | { type: 'parameters.editDropout'; contributor: number; value: string }
  /** Mixture analyses: Hd's fixed drop-out of one contributor (the unknown in the person of interest's place, known contributors, unknowns); all blank: LRmix's convention. */
  | { type: 'parameters.editDropoutHd'; contributor: number; value: string }
  | { type: 'parameters.check'; field: MixtureSwitch; checked: boolean }
  /** Mixture analyses: back to the analysis's own parameters. */
  | { type: 'parameters.reset' }
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

export {
  DROPOUT_CHOICES,
  MAX_FURTHER_REPLICATES,
  MAX_KNOWN_CONTRIBUTORS,
  contributorLabels,
  hdContributorLabels,
  knownContributorLabel,
  mixtureDraft,
  readMixtureParameters,
  replicateLabel,
  type DropoutChoice,
  type MixtureDraft,
  type MixtureFieldErrors,
  type MixtureRun,
  type MixtureSwitch,
  type MixtureTextField,
} from './mixtureDraft';
import {
  MAX_FURTHER_REPLICATES,
  MAX_KNOWN_CONTRIBUTORS,
  knownContributorLabel,
  mixtureDraft,
  parameterBlockers,
  readMixtureParameters,
  replicateLabel,
  withContributors,
  type DropoutChoice, type MixtureDraft, type MixtureRun, type MixtureSwitch, type MixtureTextField } from './mixtureDraft';

type RunChoices = Pick<AnalysisRunContext, 'analysis' | 'profileIds' | 'populationIds'> & { mixture?: MixtureRun | null };

/** What keeps Run from sending, worded for the screen; empty when the analysis may run. */
export function runBlockers(context: RunChoices): string[] {
  const { analysis, profileIds, populationIds } = context;
  const mixture = context.mixture ?? null;
  const blockers = analysis.roles.flatMap((role, i) => (profileIds[i] ? [] : [`Choose a profile for ${role}`]));
  if (mixture) {
    mixture.replicateProfileIds.forEach((id, i) => id || blockers.push(`Choose a profile for ${replicateLabel(i)}, or remove it`));
    mixture.knownContributorIds.forEach((id, i) => id || blockers.push(`Choose a profile for ${knownContributorLabel(i)}, or remove it`));
  }
  const chosen = [...profileIds, ...(mixture ? [...mixture.replicateProfileIds, ...mixture.knownContributorIds] : [])].filter((id): id is string => id !== null);
  // One sample in two roles compares it with itself: a number no court should see.
  if (new Set(chosen).size < chosen.length) blockers.push(mixture ? 'Choose a different profile for each role, replicate and known contributor' : 'Choose a different profile for each role');
  if (usesPopulations(analysis.kind) && populationIds.length === 0) blockers.push('Choose at least one population');
  if (mixture) {
    const read = readMixtureParameters(mixture.parameters, mixture.knownContributorIds.length);
    if (read.errors) blockers.push(...parameterBlockers(read.errors, mixture.knownContributorIds.length, mixture.parameters.dropoutEach.length));
  }
  return blockers;
}

/** The analyze request for the current choices (call only when runBlockers is empty). */
export function analyzeRequest(context: RunChoices): AnalyzeRequest {
  const { analysis, profileIds, populationIds } = context;
  const mixture = context.mixture ?? null;
  const body: AnalyzeBody = { profileIds: profileIds.map((id) => id!), populationIds: usesPopulations(analysis.kind) ? [...populationIds] : [] };
  if (mixture) {
    const { setting } = readMixtureParameters(mixture.parameters, mixture.knownContributorIds.length);
    body.mixture = { replicateProfileIds: mixture.replicateProfileIds.map((id) => id!), knownContributorIds: mixture.knownContributorIds.map((id) => id!), estimateDropout: mixture.parameters.estimateDropout, ...(setting ? { setting } : {}) };
  }
  return { analysisId: analysis.id, body };
}

/** The context a calculator starts with. */
export function initialRunContext(input: AnalysisRunInput): AnalysisRunContext {
  const { analysis } = input;
  return {
    analysis,
    profileIds: analysis.roles.map((_, i) => input.profileIds?.[i] ?? null),
    populationIds: [...(input.populationIds ?? [])],
    mixture: analysis.kind === 'Mixture' ? { replicateProfileIds: [], knownContributorIds: [], parameters: mixtureDraft(analysis.mixture) } : null,
    result: null,
    error: null,
    showBlockers: false,
  };
}

/** The same list with `index` changed or removed. */
const replaced = <T>(list: readonly T[], index: number, value: T): T[] => list.map((v, i) => (i === index ? value : v));
const removed = <T>(list: readonly T[], index: number): T[] => list.filter((_, i) => i !== index);

const notProvided = async (): Promise<never> => {
  throw new Error('analysisRunMachine: provide the analyze actor (the calculator screen)');
};

/** Changing a choice: applied in every state but running, dropping a result or failure that belonged to the old choices. */
const CHOICES = {
  'profile.choose': { target: '#analysisRun.editing', actions: 'chooseProfile' },
  'population.toggle': { target: '#analysisRun.editing', actions: 'togglePopulation' },
  'replicate.add': { guard: 'canAddReplicate', target: '#analysisRun.editing', actions: 'addReplicate' },
  'replicate.choose': { guard: 'replicateExists', target: '#analysisRun.editing', actions: 'chooseReplicate' },
  'replicate.remove': { guard: 'replicateExists', target: '#analysisRun.editing', actions: 'removeReplicate' },
  'knownContributor.add': { guard: 'canAddKnownContributor', target: '#analysisRun.editing', actions: 'addKnownContributor' },
  'knownContributor.choose': { guard: 'knownContributorExists', target: '#analysisRun.editing', actions: 'chooseKnownContributor' },
  'knownContributor.remove': { guard: 'knownContributorExists', target: '#analysisRun.editing', actions: 'removeKnownContributor' },
  'parameters.edit': { guard: 'isMixture', target: '#analysisRun.editing', actions: 'editParameter' },
  'parameters.chooseDropout': { guard: 'isMixture', target: '#analysisRun.editing', actions: 'chooseDropout' },
  'parameters.editDropout': { guard: 'contributorExists', target: '#analysisRun.editing', actions: 'editDropout' },
  'parameters.editDropoutHd': { guard: 'contributorExists', target: '#analysisRun.editing', actions: 'editDropoutHd' },
  'parameters.check': { guard: 'isMixture', target: '#analysisRun.editing', actions: 'checkParameter' },
  'parameters.reset': { guard: 'isMixture', target: '#analysisRun.editing', actions: 'resetParameters' },
} as const;

/** A change to a mixture run's choices (the guards let only mixture runs here), dropping the result or failure of the old ones. */
function mixtureChange(context: AnalysisRunContext, change: (mixture: MixtureRun) => Partial<MixtureRun>): Partial<AnalysisRunContext> {
  return { mixture: { ...context.mixture!, ...change(context.mixture!) }, result: null, error: null };
}
const parametersChange = (context: AnalysisRunContext, change: (parameters: MixtureDraft) => MixtureDraft) => mixtureChange(context, (m) => ({ parameters: change(m.parameters) }));

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
    isMixture: ({ context }) => context.mixture !== null,
    canAddReplicate: ({ context }) => context.mixture !== null && context.mixture.replicateProfileIds.length < MAX_FURTHER_REPLICATES,
    canAddKnownContributor: ({ context }) => context.mixture !== null && context.mixture.knownContributorIds.length < MAX_KNOWN_CONTRIBUTORS,
    replicateExists: ({ context, event }) => 'index' in event && context.mixture !== null && event.index >= 0 && event.index < context.mixture.replicateProfileIds.length,
    knownContributorExists: ({ context, event }) => 'index' in event && context.mixture !== null && event.index >= 0 && event.index < context.mixture.knownContributorIds.length,
    contributorExists: ({ context, event }) => 'contributor' in event && context.mixture !== null && event.contributor >= 0 && event.contributor < context.mixture.parameters.dropoutEach.length,
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
    addReplicate: assign(({ context }) => mixtureChange(context, (m) => ({ replicateProfileIds: [...m.replicateProfileIds, null] }))),
    chooseReplicate: assign(({ context, event }) => {
      assertEvent(event, 'replicate.choose');
      return mixtureChange(context, (m) => ({ replicateProfileIds: replaced(m.replicateProfileIds, event.index, event.profileId) }));
    }),
    removeReplicate: assign(({ context, event }) => {
      assertEvent(event, 'replicate.remove');
      return mixtureChange(context, (m) => ({ replicateProfileIds: removed(m.replicateProfileIds, event.index) }));
    }),
    addKnownContributor: assign(({ context }) => mixtureChange(context, (m) => ({ knownContributorIds: [...m.knownContributorIds, null] }))),
    chooseKnownContributor: assign(({ context, event }) => {
      assertEvent(event, 'knownContributor.choose');
      return mixtureChange(context, (m) => ({ knownContributorIds: replaced(m.knownContributorIds, event.index, event.profileId) }));
    }),
    removeKnownContributor: assign(({ context, event }) => {
      assertEvent(event, 'knownContributor.remove');
      return mixtureChange(context, (m) => ({ knownContributorIds: removed(m.knownContributorIds, event.index) }));
    }),
    editParameter: assign(({ context, event }) => {
      assertEvent(event, 'parameters.edit');
      return parametersChange(context, (p) => (event.field === 'contributors' ? withContributors(p, event.value) : { ...p, [event.field]: event.value }));
    }),
    chooseDropout: assign(({ context, event }) => {
      assertEvent(event, 'parameters.chooseDropout');
      return parametersChange(context, (p) => ({ ...p, dropout: event.dropout }));
    }),
    editDropout: assign(({ context, event }) => {
      assertEvent(event, 'parameters.editDropout');
      return parametersChange(context, (p) => ({ ...p, dropoutEach: replaced(p.dropoutEach, event.contributor, event.value) }));
    }),
    editDropoutHd: assign(({ context, event }) => {
      assertEvent(event, 'parameters.editDropoutHd');
      return parametersChange(context, (p) => ({ ...p, dropoutHdEach: replaced(p.dropoutHdEach, event.contributor, event.value) }));
    }),
    checkParameter: assign(({ context, event }) => {
      assertEvent(event, 'parameters.check');
      return parametersChange(context, (p) => ({ ...p, [event.field]: event.checked }));
    }),
    resetParameters: assign(({ context }) => parametersChange(context, () => mixtureDraft(context.analysis.mixture))),
    ...runActions<AnalysisRunContext, AnalysisRunEvent, AnalysisResult>(),
  },
}).createMachine({
  id: 'analysisRun',
  context: ({ input }) => initialRunContext(input),
  initial: 'editing',
  states: runStates(CHOICES, 'analyze', ({ context }: { context: AnalysisRunContext }) => analyzeRequest(context)),
});
