import { MAX_MIXTURE_CONTRIBUTORS, type MixtureSetting } from '../core/schemas/mixtures';
import { REQUIRED } from '../core/schemas/named-record';

// A mixture run's parameters as its form holds them, read into the setting the server takes (issue 17; issue 30:
// Hd's own drop-outs). Shared by the calculator (analysisRun.machine.ts) and the mixture search.

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
  /**
   * Hd's fixed drop-outs (with `each`), in the order the unknown in the person of interest's place, known contributors,
   * other unknowns; all blank: LRmix Studio's convention (every unknown takes the unknowns' value, GENETICS.md "Mixtures").
   */
  dropoutHdEach: string[];
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

/** The contributors in drop-out order under Hd: the unknown in the person of interest's place, the known contributors, the other unknowns. */
export function hdContributorLabels(contributors: number, knownContributors: number): string[] {
  return contributorLabels(contributors, knownContributors).map((label, i) => (i === 0 ? 'Unknown in the person of interest’s place' : label));
}

/** The form's values for a stored setting; an analysis without one starts from LRmix's defaults (drop-in 0.05, θ 0.01). */
export function mixtureDraft(setting: MixtureSetting | null | undefined): MixtureDraft {
  const s = setting ?? { contributors: 2, dropout: { mode: 'estimated', estimate: 'conservative' }, dropIn: 0.05, theta: 0.01, personOfInterestTypedUnderHd: true, normalizeFrequencies: false };
  const values = s.dropout.mode === 'fixed' ? s.dropout.values.map(String) : [];
  const hdValues = s.dropout.mode === 'fixed' ? (s.dropout.hdValues ?? []).map(String) : [];
  const dropout: DropoutChoice = s.dropout.mode === 'estimated' ? s.dropout.estimate : values.length === 1 ? 'all' : 'each';
  return {
    contributors: String(s.contributors),
    dropout,
    dropoutAll: values[0] ?? '',
    dropoutEach: values.length === s.contributors ? values : Array.from({ length: s.contributors }, () => values[0] ?? ''),
    dropoutHdEach: hdValues.length === s.contributors ? hdValues : Array.from({ length: s.contributors }, () => hdValues[0] ?? ''),
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

/** The form's fields and their messages; `dropout` is keyed by contributor (its index as text, `hd` before it under Hd) or `all`. */
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
  let hdValues: number[] | null = null;
  if (draft.dropout === 'all' || draft.dropout === 'each') {
    const typed: [string, string][] = draft.dropout === 'all' ? [['all', draft.dropoutAll]] : draft.dropoutEach.map((v, i) => [String(i), v]);
    const wrong: (readonly [string, string])[] = typed.flatMap(([key, v]) => {
      const message = probabilityError(v);
      return message ? [[key, message] as const] : [];
    });
    values = typed.map(([, v]) => probability(v) ?? 0);
    // Hd's own drop-outs: none typed keeps LRmix's convention; any typed, each of them is needed.
    if (draft.dropout === 'each' && draft.dropoutHdEach.some((v) => v.trim() !== '')) {
      const hd = draft.dropoutHdEach.slice(0, n);
      for (const [i, v] of hd.entries()) {
        const message = probabilityError(v);
        if (message) wrong.push([`hd${i}`, message] as const);
      }
      hdValues = hd.map((v) => probability(v) ?? 0);
    }
    if (wrong.length > 0) errors.dropout = Object.fromEntries(wrong);
  }
  if (Object.keys(errors).length > 0 || dropIn === null || theta === null) return { setting: null, errors };
  const dropout: MixtureSetting['dropout'] =
    draft.dropout === 'all' || draft.dropout === 'each' ? { mode: 'fixed', values, ...(hdValues ? { hdValues } : {}) } : { mode: 'estimated', estimate: draft.dropout };
  return { setting: { contributors: n, dropout, dropIn, theta, personOfInterestTypedUnderHd: draft.personOfInterestTypedUnderHd, normalizeFrequencies: draft.normalizeFrequencies }, errors: null };
}

/** The field messages as Run lists them: each with its field's name. */
/** The name Run's list gives a drop-out field: `all`, a contributor's index, or `hd` and an index under Hd. */
function dropoutFieldName(key: string, labels: readonly string[], hdLabels: readonly string[]): string {
  if (key === 'all') return 'Drop-out';
  const hd = key.startsWith('hd');
  const i = Number(hd ? key.slice(2) : key);
  const who = (hd ? hdLabels : labels)[i] ?? `contributor ${i + 1}`;
  return hd ? `Drop-out under Hd of ${who}` : `Drop-out of ${who}`;
}

export function parameterBlockers(errors: MixtureFieldErrors, knownContributors: number, contributors: number): string[] {
  const labels = contributorLabels(contributors, knownContributors);
  const hdLabels = hdContributorLabels(contributors, knownContributors);
  return [
    ...(errors.contributors ? [`Number of contributors: ${errors.contributors}`] : []),
    ...Object.entries(errors.dropout ?? {}).map(([key, message]) => `${dropoutFieldName(key, labels, hdLabels)}: ${message}`),
    ...(errors.dropIn ? [`Drop-in: ${errors.dropIn}`] : []),
    ...(errors.theta ? [`θ: ${errors.theta}`] : []),
  ];
}


/** Resizes the per-contributor drop-outs when the number of contributors changes: kept values stay, new ones start from the value for all (Hd's blank). */
export function withContributors(parameters: MixtureDraft, contributors: string): MixtureDraft {
  const n = Number(contributors.trim());
  if (!/^\d+$/.test(contributors.trim()) || n < 1 || n > MAX_MIXTURE_CONTRIBUTORS) return { ...parameters, contributors };
  const each = parameters.dropoutEach.slice(0, n);
  while (each.length < n) each.push(parameters.dropoutAll);
  const hd = parameters.dropoutHdEach.slice(0, n);
  while (hd.length < n) hd.push('');
  return { ...parameters, contributors, dropoutEach: each, dropoutHdEach: hd };
}
