import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { AnalysisKind, AnalysisResult, AnalyzeBody } from '../core/schemas/analyses';
import { MAX_MIXTURE_CONTRIBUTORS, type MixtureSetting } from '../core/schemas/mixtures';
import { REQUIRED } from '../core/schemas/named-record';
import { toEditorError, type EditorError } from './recordEditor.machine';

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

/** The parameters typed as text in the mixture form. */
export type MixtureTextField = 'contributors' | 'dropoutAll' | 'dropIn' | 'theta';
/** The mixture form's switches: two parameters, and whether to estimate drop-out for the reader (slow on a large stain). */
export type MixtureSwitch = 'personOfInterestTypedUnderHd' | 'normalizeFrequencies' | 'estimateDropout';
/** How drop-out is set: fixed (one value for all, or one per contributor) or estimated (GENETICS.md "Mixtures"). */
export const DROPOUT_CHOICES = ['all', 'each', 'maximum-likelihood', 'conservative'] as const;
export type DropoutChoice = (typeof DROPOUT_CHOICES)[number];

/** A mixture run's parameters as the form holds them: numbers as typed, so a half-typed value stays on screen. */
export interface MixtureDraft {
  contributors: string;
  dropout: DropoutChoice;
  /** Fixed drop-out, one value for all contributors. */
  dropoutAll: string;
  /** Fixed drop-out per contributor, in the order person of interest, known contributors, unknowns. */
  dropoutEach: string[];
  dropIn: string;
  theta: string;
  personOfInterestTypedUnderHd: boolean;
  normalizeFrequencies: boolean;
  estimateDropout: boolean;
}

/** What a mixture run adds to the two roles (issue 17). */
export interface MixtureRun {
  /** Further replicates of the evidence; the Evidence role is the first. */
  replicateProfileIds: (string | null)[];
  knownContributorIds: (string | null)[];
  parameters: MixtureDraft;
}

/** Most replicates and known contributors a run takes (AnalyzeBody): 10 replicates in all, contributors less the person of interest. */
export const MAX_FURTHER_REPLICATES = 9;
export const MAX_KNOWN_CONTRIBUTORS = MAX_MIXTURE_CONTRIBUTORS - 1;

/** The slots' names, as the result's roles name them. */
export const replicateLabel = (index: number): string => `Evidence (replicate ${index + 2})`;
export const knownContributorLabel = (index: number): string => `Known contributor ${index + 1}`;

/** The contributors in drop-out order under Hp: the person of interest, the known contributors, then the unknowns. */
export function contributorLabels(contributors: number, knownContributors: number): string[] {
  return Array.from({ length: contributors }, (_, i) => (i === 0 ? 'Person of interest' : i <= knownContributors ? knownContributorLabel(i - 1) : `Unknown ${i - knownContributors}`));
}

/** The form's values for a stored setting; an analysis without one starts from LRmix's defaults (drop-in 0.05, θ 0.01). */
export function mixtureDraft(setting: MixtureSetting | null | undefined): MixtureDraft {
  const s = setting ?? { contributors: 2, dropout: { mode: 'estimated', estimate: 'conservative' }, dropIn: 0.05, theta: 0.01, personOfInterestTypedUnderHd: true, normalizeFrequencies: false };
  const values = s.dropout.mode === 'fixed' ? s.dropout.values.map(String) : [];
  const dropout: DropoutChoice = s.dropout.mode === 'estimated' ? s.dropout.estimate : values.length === 1 ? 'all' : 'each';
  return {
    contributors: String(s.contributors),
    dropout,
    dropoutAll: values[0] ?? '',
    dropoutEach: values.length === s.contributors ? values : Array.from({ length: s.contributors }, () => values[0] ?? ''),
    dropIn: String(s.dropIn),
    theta: String(s.theta),
    personOfInterestTypedUnderHd: s.personOfInterestTypedUnderHd,
    normalizeFrequencies: s.normalizeFrequencies,
    estimateDropout: false,
  };
}

/** A probability as typed ("0.05", or "0,05" with a decimal comma); null unless it is at least 0 and below 1. */
function probability(text: string): number | null {
  const trimmed = text.trim().replace(',', '.');
  const value = Number(trimmed);
  return trimmed !== '' && Number.isFinite(value) && value >= 0 && value < 1 ? value : null;
}

const PROBABILITY_RANGE = 'A number from 0 to below 1, e.g. 0.05';
const probabilityError = (text: string): string | null => (text.trim() === '' ? REQUIRED : probability(text) === null ? PROBABILITY_RANGE : null);

/** The form's fields and their messages; `dropout` is keyed by contributor (its index as text) or `all`. */
export interface MixtureFieldErrors {
  contributors?: string;
  dropout?: Partial<Record<string, string>>;
  dropIn?: string;
  theta?: string;
}

/** Reads the form: the setting to send, or each field's message (shown beside it, and listed when Run is pressed). */
export function readMixtureParameters(draft: MixtureDraft, knownContributors: number): { setting: MixtureSetting; errors: null } | { setting: null; errors: MixtureFieldErrors } {
  const errors: MixtureFieldErrors = {};
  const n = Number(draft.contributors.trim());
  const contributorsValid = /^\d+$/.test(draft.contributors.trim()) && n >= 1 && n <= MAX_MIXTURE_CONTRIBUTORS;
  if (!contributorsValid) errors.contributors = `A whole number from 1 to ${MAX_MIXTURE_CONTRIBUTORS}`;
  // Hp holds the person of interest and every known contributor.
  else if (n < knownContributors + 1) errors.contributors = `At least ${knownContributors + 1}: the person of interest and ${knownContributors} known contributor${knownContributors === 1 ? '' : 's'}`;
  const dropIn = probability(draft.dropIn);
  const theta = probability(draft.theta);
  const dropInError = probabilityError(draft.dropIn);
  if (dropInError) errors.dropIn = dropInError;
  const thetaError = probabilityError(draft.theta);
  if (thetaError) errors.theta = thetaError;
  let values: number[] = [];
  if (draft.dropout === 'all' || draft.dropout === 'each') {
    const typed: [string, string][] = draft.dropout === 'all' ? [['all', draft.dropoutAll]] : draft.dropoutEach.map((v, i) => [String(i), v]);
    const wrong = typed.flatMap(([key, v]) => {
      const message = probabilityError(v);
      return message ? [[key, message] as const] : [];
    });
    if (wrong.length > 0) errors.dropout = Object.fromEntries(wrong);
    values = typed.map(([, v]) => probability(v) ?? 0);
  }
  if (Object.keys(errors).length > 0 || dropIn === null || theta === null) return { setting: null, errors };
  const dropout: MixtureSetting['dropout'] = draft.dropout === 'all' || draft.dropout === 'each' ? { mode: 'fixed', values } : { mode: 'estimated', estimate: draft.dropout };
  return { setting: { contributors: n, dropout, dropIn, theta, personOfInterestTypedUnderHd: draft.personOfInterestTypedUnderHd, normalizeFrequencies: draft.normalizeFrequencies }, errors: null };
}

/** The field messages as Run lists them: each with its field's name. */
function parameterBlockers(errors: MixtureFieldErrors, knownContributors: number, contributors: number): string[] {
  const labels = contributorLabels(contributors, knownContributors);
  return [
    ...(errors.contributors ? [`Number of contributors: ${errors.contributors}`] : []),
    ...Object.entries(errors.dropout ?? {}).map(([key, message]) => `${key === 'all' ? 'Drop-out' : `Drop-out of ${labels[Number(key)] ?? `contributor ${Number(key) + 1}`}`}: ${message}`),
    ...(errors.dropIn ? [`Drop-in: ${errors.dropIn}`] : []),
    ...(errors.theta ? [`θ: ${errors.theta}`] : []),
  ];
}

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

/** Resizes the per-contributor drop-outs when the number of contributors changes: kept values stay, new ones start from the value for all. */
function withContributors(parameters: MixtureDraft, contributors: string): MixtureDraft {
  const n = Number(contributors.trim());
  if (!/^\d+$/.test(contributors.trim()) || n < 1 || n > MAX_MIXTURE_CONTRIBUTORS) return { ...parameters, contributors };
  const each = parameters.dropoutEach.slice(0, n);
  while (each.length < n) each.push(parameters.dropoutAll);
  return { ...parameters, contributors, dropoutEach: each };
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
    checkParameter: assign(({ context, event }) => {
      assertEvent(event, 'parameters.check');
      return parametersChange(context, (p) => ({ ...p, [event.field]: event.checked }));
    }),
    resetParameters: assign(({ context }) => parametersChange(context, () => mixtureDraft(context.analysis.mixture))),
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
