import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { MAX_MIXTURE_CONTRIBUTORS, MIXTURE_SEARCHED_DEFAULT, type MixtureProfileInput, type MixtureSearchAnswer, type MixtureSearchBody, type MixtureSetting } from '../core/schemas/mixtures';
import type { Profile } from '../core/schemas/profiles';
import { MAX_FURTHER_REPLICATES, MAX_KNOWN_CONTRIBUTORS, mixtureDraft, readMixtureParameters, type DropoutChoice, type MixtureDraft, type MixtureSwitch, type MixtureTextField } from './analysisRun.machine';
import { toEditorError, type EditorError } from './recordEditor.machine';

/**
 * The mixture search (issue 17; SmartRank's list): the evidence profile the page was opened from (or, opened from the
 * keyboard search, a first replicate typed per marker), further replicates
 * and known contributors (stored profiles or alleles typed per marker), a mixture analysis whose parameters prefill
 * the form, the populations, the searched sample types and how many candidates; Run checks the form (validating),
 * sends `POST mixture-search` (running, cancellable) and shows the ranked list or the failure, each of the server's
 * field messages at its field. Every value stays as typed whatever the outcome; a change drops the list, so the
 * numbers on screen always belong to the form shown. Pure: the search is an injected actor.
 */

/** A mixture analysis the search may use, with its stored parameters (the form starts from them). */
export interface SearchAnalysis {
  id: string;
  name: string;
  mixture: MixtureSetting;
}

/** The evidence profile the search was opened from: its first replicate. Its markers are those a typed profile fills in. */
export interface SearchEvidence {
  id: string;
  sampleName: string;
  caseNumber: string;
  markers: readonly string[];
}

/** A further replicate or known contributor: a stored profile (null until chosen), or alleles typed per marker name. */
export type ProfileSlot = { source: 'stored'; profile: Profile | null } | { source: 'typed'; alleles: Readonly<Record<string, string>> };
export type SlotList = 'replicates' | 'knownContributors';

/** The search's own text fields (numbers as typed). */
export type ScopeField = 'limit' | 'minMarkers';

/** Messages by field: `analysis`, `evidence`, `replicates.0`, `knownContributors.1`, `contributors`, `dropout`, `dropout.all`, `dropout.2`, `dropIn`, `theta`, `populations`, `sampleTypes`, `limit`, `minMarkers`. */
export type FieldErrors = Partial<Record<string, string>>;

/** Why the search failed: the server's message, and its field messages (a 400's `details`) by field, or listed when no field shows them. */
export interface MixtureSearchError extends EditorError {
  fields: FieldErrors;
  other: string[];
}

export interface MixtureSearchInput {
  /** The organization searched: the route's, or `all` (scope All). */
  organizationId: string;
  /** The stored profile the search was opened from (its first replicate); absent, the first replicate is typed. */
  evidence?: SearchEvidence | null;
  /** The markers typed profiles fill in when there is no stored evidence (else the evidence's). */
  markers?: readonly string[];
  /** The active mixture analyses; the first is chosen. */
  analyses: readonly SearchAnalysis[];
  populationIds?: readonly string[];
}

export interface MixtureSearchContext {
  organizationId: string;
  /** The stored first replicate, or null when it is typed (`typedEvidence`). */
  evidence: SearchEvidence | null;
  /** The first replicate's alleles typed per marker, when there is no stored evidence. */
  typedEvidence: Readonly<Record<string, string>>;
  /** The markers a typed profile fills in. */
  markers: readonly string[];
  analyses: readonly SearchAnalysis[];
  analysisId: string | null;
  /** Further replicates; the evidence is the first. */
  replicates: ProfileSlot[];
  knownContributors: ProfileSlot[];
  parameters: MixtureDraft;
  populationIds: string[];
  sampleTypes: string[];
  limit: string;
  minMarkers: string;
  /** The last search sent: the list on screen answers it. */
  request: MixtureSearchBody | null;
  answer: MixtureSearchAnswer | null;
  error: MixtureSearchError | null;
  /** Set when Run was pressed with something missing: every field then says what. */
  showBlockers: boolean;
}

export type MixtureSearchEvent =
  | { type: 'analysis.choose'; analysisId: string }
  | { type: 'slot.add'; list: SlotList; source: ProfileSlot['source'] }
  | { type: 'slot.choose'; list: SlotList; index: number; profile: Profile | null }
  | { type: 'slot.type'; list: SlotList; index: number; marker: string; text: string }
  | { type: 'slot.remove'; list: SlotList; index: number }
  /** The typed first replicate's alleles at one marker (no stored evidence). */
  | { type: 'evidence.type'; marker: string; text: string }
  /** A parameter as typed: the number of contributors, the drop-out for all, drop-in, θ. */
  | { type: 'parameters.edit'; field: MixtureTextField; value: string }
  | { type: 'parameters.chooseDropout'; dropout: DropoutChoice }
  /** The fixed drop-out of one contributor (candidate, known contributors, unknowns). */
  | { type: 'parameters.editDropout'; contributor: number; value: string }
  /** θ's counting of the candidate under Hd, or the frequencies' normalization. */
  | { type: 'parameters.check'; field: MixtureSwitch; checked: boolean }
  /** Back to the chosen analysis's parameters. */
  | { type: 'parameters.reset' }
  | { type: 'population.toggle'; populationId: string }
  | { type: 'sampleType.toggle'; sampleType: string }
  | { type: 'scope.edit'; field: ScopeField; value: string }
  | { type: 'search.run' }
  /** Stop waiting for the search; its request is aborted and the form stays. */
  | { type: 'search.cancel' }
  /** Send the form again after a failure. */
  | { type: 'search.retry' }
  | { type: 'failure.dismiss' };

export type MixtureSearchTag = 'busy';

/** Most candidates a search lists and most populations it weighs at once (MixtureSearchBody). */
export const MIXTURE_SEARCH_MAX_LIMIT = 500;
export const MIXTURE_SEARCH_MAX_POPULATIONS = 10;
const MAX_SLOTS: Record<SlotList, number> = { replicates: MAX_FURTHER_REPLICATES, knownContributors: MAX_KNOWN_CONTRIBUTORS };

/** The slots' names as the form and the server's messages give them ("Replicate 2: …"). */
export const slotLabel = (list: SlotList, index: number): string => (list === 'replicates' ? `Replicate ${index + 2}` : `Known contributor ${index + 1}`);

/** The contributors in drop-out order under Hp: the candidate, the known contributors, then the unknowns. */
export function searchContributorLabels(contributors: number, knownContributors: number): string[] {
  return Array.from({ length: contributors }, (_, i) => (i === 0 ? 'Candidate' : i <= knownContributors ? `Known contributor ${i}` : `Unknown ${i - knownContributors}`));
}

/** Alleles as typed at one marker ("15, 16", "9.3 10"): comma, semicolon or space separated. */
export const typedAlleles = (text: string): string[] => text.split(/[\s,;]+/).filter((a) => a !== '');

const wholeNumber = (text: string, min: number, max: number): number | null => {
  const n = Number(text.trim());
  return /^\d+$/.test(text.trim()) && n >= min && n <= max ? n : null;
};

/** A stored or typed profile as the request sends it; null while a stored slot has no profile or a typed one no allele. */
function slotInput(slot: ProfileSlot): MixtureProfileInput | null {
  if (slot.source === 'stored') return slot.profile ? { profileId: slot.profile.id } : null;
  const markers = Object.entries(slot.alleles).flatMap(([marker, text]) => {
    const alleles = typedAlleles(text);
    return alleles.length > 0 ? [{ marker, alleles }] : [];
  });
  return markers.length > 0 ? { markers } : null;
}

type FormContext = Pick<MixtureSearchContext, 'evidence' | 'typedEvidence' | 'analyses' | 'analysisId' | 'replicates' | 'knownContributors' | 'parameters' | 'populationIds' | 'sampleTypes' | 'limit' | 'minMarkers'>;

/** The parameters' messages by field (shown beside their boxes as they are typed). */
function parameterErrors(context: Pick<FormContext, 'parameters' | 'knownContributors'>): FieldErrors {
  const { errors } = readMixtureParameters(context.parameters, context.knownContributors.length);
  if (!errors) return {};
  return {
    // Under Hp the candidate takes the person of interest's place.
    ...(errors.contributors ? { contributors: errors.contributors.replace('the person of interest', 'the candidate') } : {}),
    ...Object.fromEntries(Object.entries(errors.dropout ?? {}).map(([key, message]) => [`dropout.${key}`, message])),
    ...(errors.dropIn ? { dropIn: errors.dropIn } : {}),
    ...(errors.theta ? { theta: errors.theta } : {}),
  };
}

/** Every field that keeps Run from sending, with its message; empty when the form may be sent. */
export function formErrors(context: FormContext): FieldErrors {
  const errors: FieldErrors = {};
  if (!context.analyses.some((a) => a.id === context.analysisId)) errors.analysis = 'Choose a mixture analysis';
  const seen = new Map<string, string>(context.evidence ? [[context.evidence.id, 'the evidence']] : []);
  if (!context.evidence && !slotInput({ source: 'typed', alleles: context.typedEvidence })) errors.evidence = 'Type the alleles of at least one marker';
  for (const list of ['replicates', 'knownContributors'] as const) {
    context[list].forEach((slot, i) => {
      const key = `${list}.${i}`;
      if (slot.source === 'typed') {
        if (!slotInput(slot)) errors[key] = 'Type the alleles of at least one marker, or remove it';
      } else if (!slot.profile) errors[key] = 'Choose a profile, or remove it';
      else if (seen.has(slot.profile.id)) errors[key] = `Already chosen as ${seen.get(slot.profile.id)}`;
      else seen.set(slot.profile.id, slotLabel(list, i));
    });
  }
  Object.assign(errors, parameterErrors(context));
  if (context.populationIds.length === 0) errors.populations = 'Choose at least one population';
  else if (context.populationIds.length > MIXTURE_SEARCH_MAX_POPULATIONS) errors.populations = `At most ${MIXTURE_SEARCH_MAX_POPULATIONS} populations at once`;
  if (context.sampleTypes.length === 0) errors.sampleTypes = 'Choose at least one sample type';
  if (wholeNumber(context.limit, 1, MIXTURE_SEARCH_MAX_LIMIT) === null) errors.limit = `A whole number from 1 to ${MIXTURE_SEARCH_MAX_LIMIT}`;
  if (wholeNumber(context.minMarkers, 1, 100) === null) errors.minMarkers = 'A whole number from 1 to 100';
  return errors;
}

/** The fields' names as Run lists them. */
export function fieldLabel(key: string, context: Pick<FormContext, 'parameters' | 'knownContributors'>): string {
  const [field, index] = key.split('.');
  const n = Number(index);
  switch (field) {
    case 'analysis':
      return 'Mixture analysis';
    case 'evidence':
      return 'Evidence';
    case 'replicates':
    case 'knownContributors':
      return slotLabel(field, n);
    case 'contributors':
      return 'Number of contributors';
    case 'dropout': {
      if (index === undefined || index === 'all') return 'Drop-out';
      const labels = searchContributorLabels(context.parameters.dropoutEach.length, context.knownContributors.length);
      return `Drop-out of ${labels[n] ?? `contributor ${n + 1}`}`;
    }
    case 'dropIn':
      return 'Drop-in';
    case 'theta':
      return 'θ';
    case 'populations':
      return 'Populations';
    case 'sampleTypes':
      return 'Searched sample types';
    case 'limit':
      return 'Candidates to list (top N)';
    case 'minMarkers':
      return 'Minimum compared markers';
    default:
      return key;
  }
}

/** The messages a field shows now: the parameters' as typed, the rest once Run was pressed, and the server's. */
export function visibleFieldErrors(context: MixtureSearchContext): FieldErrors {
  const own = context.showBlockers ? formErrors(context) : parameterErrors(context);
  return { ...own, ...context.error?.fields };
}

/** The request for the form (call only when formErrors is empty): the parameters are always sent as typed. */
export function searchRequest(context: MixtureSearchContext): MixtureSearchBody {
  const { setting } = readMixtureParameters(context.parameters, context.knownContributors.length);
  return {
    organizationId: context.organizationId,
    analysisId: context.analysisId!,
    replicates: [context.evidence ? { profileId: context.evidence.id } : slotInput({ source: 'typed', alleles: context.typedEvidence })!, ...context.replicates.map((s) => slotInput(s)!)],
    knownContributors: context.knownContributors.map((s) => slotInput(s)!),
    ...(setting ? { setting } : {}),
    populationIds: [...context.populationIds],
    searchedSampleTypes: [...context.sampleTypes],
    minMarkers: Number(context.minMarkers.trim()),
    limit: Number(context.limit.trim()),
  };
}

/** The form field a 400's detail path names (`/setting/theta` → theta, `/replicates/2/markers/0` → replicates.1), or null. */
export function fieldOfPath(path: string, dropout: DropoutChoice): string | null {
  const [head, index, , valueIndex] = path.split('/').filter((p) => p !== '');
  const n = index === undefined ? NaN : Number(index);
  switch (head) {
    case 'analysisId':
      return 'analysis';
    case 'replicates':
      return Number.isInteger(n) && n > 0 ? `replicates.${n - 1}` : 'evidence';
    case 'knownContributors':
      return Number.isInteger(n) ? `knownContributors.${n}` : null;
    case 'setting':
      if (index === 'contributors' || index === 'dropIn' || index === 'theta') return index;
      if (index !== 'dropout') return null;
      if (dropout === 'all') return 'dropout.all';
      return dropout === 'each' && valueIndex !== undefined && Number.isInteger(Number(valueIndex)) ? `dropout.${valueIndex}` : 'dropout';
    case 'populationIds':
      return 'populations';
    case 'searchedSampleTypes':
      return 'sampleTypes';
    case 'limit':
    case 'minMarkers':
      return head;
    default:
      return null;
  }
}

/** What the screen shows of a failure: the message, each field message at its field (the first per field), the rest listed. */
export function toSearchError(err: unknown, dropout: DropoutChoice): MixtureSearchError {
  const details = (err as { body?: { details?: unknown } } | null)?.body?.details;
  const fields: FieldErrors = {};
  const other: string[] = [];
  for (const d of Array.isArray(details) ? details : []) {
    if (typeof d?.path !== 'string' || typeof d?.message !== 'string') continue;
    const field = fieldOfPath(d.path, dropout);
    if (field === null) other.push(`${d.path}: ${d.message}`);
    else fields[field] ??= d.message;
  }
  return { ...toEditorError(err), fields, other };
}

/** The context a search starts with: the first analysis chosen, its parameters, the default sample types. */
export function initialSearchContext(input: MixtureSearchInput): MixtureSearchContext {
  const first = input.analyses[0] ?? null;
  return {
    organizationId: input.organizationId,
    evidence: input.evidence ?? null,
    typedEvidence: {},
    markers: input.evidence?.markers ?? input.markers ?? [],
    analyses: input.analyses,
    analysisId: first?.id ?? null,
    replicates: [],
    knownContributors: [],
    parameters: mixtureDraft(first?.mixture),
    populationIds: [...(input.populationIds ?? [])],
    sampleTypes: [...MIXTURE_SEARCHED_DEFAULT],
    limit: '50',
    minMarkers: '8',
    request: null,
    answer: null,
    error: null,
    showBlockers: false,
  };
}

/** Resizes the per-contributor drop-outs with the number of contributors: kept values stay, new ones start from the value for all. */
function withContributors(parameters: MixtureDraft, contributors: string): MixtureDraft {
  const n = wholeNumber(contributors, 1, MAX_MIXTURE_CONTRIBUTORS);
  if (n === null) return { ...parameters, contributors };
  const each = parameters.dropoutEach.slice(0, n);
  while (each.length < n) each.push(parameters.dropoutAll);
  return { ...parameters, contributors, dropoutEach: each };
}

const replaced = <T>(list: readonly T[], index: number, value: T): T[] => list.map((v, i) => (i === index ? value : v));
const toggled = (list: readonly string[], value: string): string[] => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value]);
const chosenAnalysis = (context: Pick<MixtureSearchContext, 'analyses' | 'analysisId'>) => context.analyses.find((a) => a.id === context.analysisId) ?? null;

/** A change to the form: the list or the failure of the old form is dropped. */
const change = (partial: Partial<MixtureSearchContext>): Partial<MixtureSearchContext> => ({ ...partial, answer: null, error: null });

const slotAt = (context: MixtureSearchContext, event: { list: SlotList; index: number }): ProfileSlot | undefined => context[event.list][event.index];

/** Changing the form: taken in every state but running. */
const EDITS = {
  'analysis.choose': { guard: 'analysisExists', target: '#mixtureSearch.editing', actions: 'chooseAnalysis' },
  'slot.add': { guard: 'canAddSlot', target: '#mixtureSearch.editing', actions: 'addSlot' },
  'slot.choose': { guard: 'storedSlot', target: '#mixtureSearch.editing', actions: 'chooseSlot' },
  'slot.type': { guard: 'typedSlotMarker', target: '#mixtureSearch.editing', actions: 'typeSlot' },
  'slot.remove': { guard: 'slotExists', target: '#mixtureSearch.editing', actions: 'removeSlot' },
  'evidence.type': { guard: 'typedEvidenceMarker', target: '#mixtureSearch.editing', actions: 'typeEvidence' },
  'parameters.edit': { target: '#mixtureSearch.editing', actions: 'editParameter' },
  'parameters.chooseDropout': { target: '#mixtureSearch.editing', actions: 'chooseDropout' },
  'parameters.editDropout': { guard: 'contributorExists', target: '#mixtureSearch.editing', actions: 'editDropout' },
  'parameters.reset': { guard: 'hasAnalysis', target: '#mixtureSearch.editing', actions: 'resetParameters' },
  'parameters.check': { target: '#mixtureSearch.editing', actions: 'checkParameter' },
  'population.toggle': { target: '#mixtureSearch.editing', actions: 'togglePopulation' },
  'sampleType.toggle': { target: '#mixtureSearch.editing', actions: 'toggleSampleType' },
  'scope.edit': { target: '#mixtureSearch.editing', actions: 'editScope' },
} as const;

export const mixtureSearchMachine = setup({
  types: {
    context: {} as MixtureSearchContext,
    events: {} as MixtureSearchEvent,
    input: {} as MixtureSearchInput,
    tags: {} as MixtureSearchTag,
  },
  actors: {
    search: fromPromise<MixtureSearchAnswer, MixtureSearchBody>(async () => {
      throw new Error('mixtureSearchMachine: provide the "search" actor (the mixture search page)');
    }),
  },
  guards: {
    hasBlockers: ({ context }) => Object.keys(formErrors(context)).length > 0,
    hasAnalysis: ({ context }) => chosenAnalysis(context) !== null,
    analysisExists: ({ context, event }) => event.type === 'analysis.choose' && context.analyses.some((a) => a.id === event.analysisId),
    canAddSlot: ({ context, event }) => event.type === 'slot.add' && context[event.list].length < MAX_SLOTS[event.list],
    slotExists: ({ context, event }) => event.type === 'slot.remove' && slotAt(context, event) !== undefined,
    storedSlot: ({ context, event }) => event.type === 'slot.choose' && slotAt(context, event)?.source === 'stored',
    typedSlotMarker: ({ context, event }) => event.type === 'slot.type' && slotAt(context, event)?.source === 'typed' && context.markers.includes(event.marker),
    typedEvidenceMarker: ({ context, event }) => event.type === 'evidence.type' && context.evidence === null && context.markers.includes(event.marker),
    contributorExists: ({ context, event }) => event.type === 'parameters.editDropout' && event.contributor >= 0 && event.contributor < context.parameters.dropoutEach.length,
  },
  actions: {
    chooseAnalysis: assign(({ context, event }) => {
      assertEvent(event, 'analysis.choose');
      // Another analysis brings its own parameters.
      return change({ analysisId: event.analysisId, parameters: mixtureDraft(chosenAnalysis({ ...context, analysisId: event.analysisId })?.mixture) });
    }),
    addSlot: assign(({ context, event }) => {
      assertEvent(event, 'slot.add');
      const slot: ProfileSlot = event.source === 'stored' ? { source: 'stored', profile: null } : { source: 'typed', alleles: {} };
      return change({ [event.list]: [...context[event.list], slot] });
    }),
    chooseSlot: assign(({ context, event }) => {
      assertEvent(event, 'slot.choose');
      return change({ [event.list]: replaced(context[event.list], event.index, { source: 'stored', profile: event.profile }) });
    }),
    typeSlot: assign(({ context, event }) => {
      assertEvent(event, 'slot.type');
      const slot = slotAt(context, event) as Extract<ProfileSlot, { source: 'typed' }>;
      return change({ [event.list]: replaced(context[event.list], event.index, { source: 'typed', alleles: { ...slot.alleles, [event.marker]: event.text } }) });
    }),
    typeEvidence: assign(({ context, event }) => {
      assertEvent(event, 'evidence.type');
      return change({ typedEvidence: { ...context.typedEvidence, [event.marker]: event.text } });
    }),
    removeSlot: assign(({ context, event }) => {
      assertEvent(event, 'slot.remove');
      return change({ [event.list]: context[event.list].filter((_, i) => i !== event.index) });
    }),
    editParameter: assign(({ context, event }) => {
      assertEvent(event, 'parameters.edit');
      const p = context.parameters;
      return change({ parameters: event.field === 'contributors' ? withContributors(p, event.value) : { ...p, [event.field]: event.value } });
    }),
    chooseDropout: assign(({ context, event }) => {
      assertEvent(event, 'parameters.chooseDropout');
      return change({ parameters: { ...context.parameters, dropout: event.dropout } });
    }),
    editDropout: assign(({ context, event }) => {
      assertEvent(event, 'parameters.editDropout');
      return change({ parameters: { ...context.parameters, dropoutEach: replaced(context.parameters.dropoutEach, event.contributor, event.value) } });
    }),
    resetParameters: assign(({ context }) => change({ parameters: mixtureDraft(chosenAnalysis(context)?.mixture) })),
    checkParameter: assign(({ context, event }) => {
      assertEvent(event, 'parameters.check');
      return change({ parameters: { ...context.parameters, [event.field]: event.checked } });
    }),
    togglePopulation: assign(({ context, event }) => {
      assertEvent(event, 'population.toggle');
      return change({ populationIds: toggled(context.populationIds, event.populationId) });
    }),
    toggleSampleType: assign(({ context, event }) => {
      assertEvent(event, 'sampleType.toggle');
      return change({ sampleTypes: toggled(context.sampleTypes, event.sampleType) });
    }),
    editScope: assign(({ event }) => {
      assertEvent(event, 'scope.edit');
      return change({ [event.field]: event.value });
    }),
  },
}).createMachine({
  id: 'mixtureSearch',
  context: ({ input }) => initialSearchContext(input),
  initial: 'editing',
  states: {
    editing: {
      on: { ...EDITS, 'search.run': 'validating' },
    },
    /** Run was pressed: what is missing keeps the user editing, each field saying what. */
    validating: {
      always: [
        { guard: 'hasBlockers', target: 'editing', actions: assign({ showBlockers: true }) },
        { target: 'running', actions: assign(({ context }) => ({ showBlockers: false, request: searchRequest(context), answer: null, error: null })) },
      ],
    },
    running: {
      tags: ['busy'],
      invoke: {
        src: 'search',
        input: ({ context }) => context.request!,
        onDone: { target: 'results', actions: assign({ answer: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: assign({ error: ({ context, event }) => toSearchError(event.error, context.parameters.dropout) }) },
      },
      // Leaving the state stops the actor, whose signal aborts the request.
      on: { 'search.cancel': 'editing' },
    },
    results: {
      on: { ...EDITS, 'search.run': 'validating' },
    },
    /** The server refused or failed: the form keeps every value, the messages sit at their fields. */
    failed: {
      on: {
        ...EDITS,
        'search.run': 'validating',
        'search.retry': 'validating',
        'failure.dismiss': { target: 'editing', actions: assign({ error: null }) },
      },
    },
  },
});
