/**
 * The mixture search's form (mixtureSearch.machine.ts): what keeps Run from sending, the request it sends, the
 * fields' names and where the server's messages belong; the context a search starts with.
 */
import { MIXTURE_SEARCHED_DEFAULT, type MixtureProfileInput, type MixtureSearchBody } from '../core/schemas/mixtures';
import { mixtureDraft, readMixtureParameters, type DropoutChoice } from './analysisRun.machine';
import { toEditorError } from './recordEditor.machine';
import type { FieldErrors, MixtureSearchContext, MixtureSearchError, MixtureSearchInput, ProfileSlot, SlotList } from './mixtureSearch.types';

/** Most candidates a search lists and most populations it weighs at once (MixtureSearchBody). */
export const MIXTURE_SEARCH_MAX_LIMIT = 500;
export const MIXTURE_SEARCH_MAX_POPULATIONS = 10;

/** The slots' names as the form and the server's messages give them ("Replicate 2: …"). */
export const slotLabel = (list: SlotList, index: number): string => (list === 'replicates' ? `Replicate ${index + 2}` : `Known contributor ${index + 1}`);

/** The contributors in drop-out order under Hp: the candidate, the known contributors, then the unknowns. */
export function searchContributorLabels(contributors: number, knownContributors: number): string[] {
  return Array.from({ length: contributors }, (_, i) => (i === 0 ? 'Candidate' : i <= knownContributors ? `Known contributor ${i}` : `Unknown ${i - knownContributors}`));
}

/** The contributors in drop-out order under Hd: the unknown in the candidate's place, the known contributors, the other unknowns. */
export function searchHdContributorLabels(contributors: number, knownContributors: number): string[] {
  return searchContributorLabels(contributors, knownContributors).map((label, i) => (i === 0 ? 'Unknown in the candidate’s place' : label));
}

/** Alleles as typed at one marker ("15, 16", "9.3 10"): comma, semicolon or space separated. */
export const typedAlleles = (text: string): string[] => text.split(/[\s,;]+/).filter((a) => a !== '');

/** A whole number typed within [min, max], or null. */
export const wholeNumber = (text: string, min: number, max: number): number | null => {
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

type FormContext = Pick<MixtureSearchContext, 'evidence' | 'typedEvidence' | 'analyses' | 'analysisId' | 'replicates' | 'knownContributors' | 'parameters' | 'model' | 'populationIds' | 'sampleTypes' | 'limit' | 'minMarkers'>;

/** Why the continuous model cannot weigh this evidence (it weighs the stored peak heights), shown as soon as it is chosen. */
function modelErrors(context: Pick<FormContext, 'model' | 'evidence' | 'replicates'>): FieldErrors {
  if (context.model !== 'continuous') return {};
  const errors: FieldErrors = {};
  if (!context.evidence) errors.model = 'The continuous model weighs peak heights: search from a stored stain imported with its heights (typed alleles have none)';
  else if (context.evidence.hasHeights === false) errors.model = `${context.evidence.sampleName} has no peak heights: the continuous model weighs them. Import the stain’s file with its heights, or choose the semi-continuous model`;
  context.replicates.forEach((slot, i) => {
    if (slot.source === 'typed') errors[`replicates.${i}`] = 'Typed alleles have no peak heights: choose a stored replicate, or remove it';
  });
  return errors;
}

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
  Object.assign(errors, parameterErrors(context), modelErrors(context));
  if (context.populationIds.length === 0) errors.populations = 'Choose at least one population';
  else if (context.populationIds.length > MIXTURE_SEARCH_MAX_POPULATIONS) errors.populations = `At most ${MIXTURE_SEARCH_MAX_POPULATIONS} populations at once`;
  if (context.sampleTypes.length === 0) errors.sampleTypes = 'Choose at least one sample type';
  if (wholeNumber(context.limit, 1, MIXTURE_SEARCH_MAX_LIMIT) === null) errors.limit = `A whole number from 1 to ${MIXTURE_SEARCH_MAX_LIMIT}`;
  if (wholeNumber(context.minMarkers, 1, 100) === null) errors.minMarkers = 'A whole number from 1 to 100';
  return errors;
}

/** The continuous search's own settings the form does not offer (ContinuousSearchSetting's defaults); the threshold is left to the kit. */
const CONTINUOUS_SEARCH_DEFAULTS = { dropInLambda: 0.01, starts: 4, seed: 1 };

/** The continuous model's parts that are on, as the list names them; empty when none. */
export function continuousParts(model: { degradation: boolean; backwardStutter: boolean; forwardStutter: boolean }): string {
  return [model.degradation && 'degradation', model.backwardStutter && 'backward stutter', model.forwardStutter && 'forward stutter'].filter(Boolean).join(', ');
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
      const hd = index.startsWith('hd');
      const i = hd ? Number(index.slice(2)) : n;
      const labels = (hd ? searchHdContributorLabels : searchContributorLabels)(context.parameters.dropoutEach.length, context.knownContributors.length);
      return `Drop-out${hd ? ' under Hd' : ''} of ${labels[i] ?? `contributor ${i + 1}`}`;
    }
    case 'dropIn':
      return 'Drop-in';
    case 'theta':
      return 'θ';
    case 'model':
      return 'Model';
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
  const own = context.showBlockers ? formErrors(context) : { ...parameterErrors(context), ...modelErrors(context) };
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
    ...(context.model === 'continuous' ? { model: 'continuous' as const, continuous: { ...CONTINUOUS_SEARCH_DEFAULTS, model: { ...context.continuousParts } } } : {}),
  };
}

/** The form field a 400's detail path names (`/setting/theta` → theta, `/replicates/2/markers/0` → replicates.1, `/setting/dropout/hdValues/1` → dropout.hd1), or null. */
export function fieldOfPath(path: string, dropout: DropoutChoice): string | null {
  const [head, index, list, valueIndex] = path.split('/').filter((p) => p !== '');
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
      if (dropout !== 'each' || valueIndex === undefined || !Number.isInteger(Number(valueIndex))) return 'dropout';
      return list === 'hdValues' ? `dropout.hd${valueIndex}` : `dropout.${valueIndex}`;
    case 'model':
    case 'continuous':
      return 'model';
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
    model: 'semi-continuous',
    continuousParts: { degradation: false, backwardStutter: false, forwardStutter: false },
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
