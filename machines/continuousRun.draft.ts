import { MAX_CONTINUOUS_CONTRIBUTORS, type ContinuousLrBody, type ContinuousModelSwitches } from '../core/schemas/continuous';
import { REQUIRED } from '../core/schemas/named-record';

// The continuous calculator's parameters as its form holds them (issue 31), read into what POST continuous-lr takes.

/** The model's switches (EuroForMix: forward stutter needs the backward stutter model). */
export type ContinuousSwitch = 'degradation' | 'backwardStutter' | 'forwardStutter' | 'personOfInterestTypedUnderHd' | 'normalizeFrequencies';
/** The numbers typed once for the run. */
export type ContinuousTextField = 'contributors' | 'dropIn' | 'dropInLambda' | 'theta' | 'analyticalThreshold' | 'starts' | 'seed';
/** A fixed parameter of one hypothesis; `mx` is one per contributor. */
export type GammaField = 'mx' | 'mu' | 'sigma' | 'beta' | 'xiB' | 'xiF';
export type Hypothesis = 'hp' | 'hd';

/** A hypothesis's fixed parameters as typed. */
export interface GammaDraft {
  mx: string[];
  mu: string;
  sigma: string;
  beta: string;
  xiB: string;
  xiF: string;
}

export interface ContinuousDraft {
  contributors: string;
  degradation: boolean;
  backwardStutter: boolean;
  forwardStutter: boolean;
  dropIn: string;
  dropInLambda: string;
  theta: string;
  /** The analytical threshold: the stain's kit's (per dye where set), or one typed for every marker. */
  threshold: 'kit' | 'typed';
  analyticalThreshold: string;
  personOfInterestTypedUnderHd: boolean;
  normalizeFrequencies: boolean;
  /** Fit by maximum likelihood under each hypothesis, or weigh at the parameters typed. */
  mode: 'fit' | 'fixed';
  starts: string;
  seed: string;
  fixed: Record<Hypothesis, GammaDraft>;
}

/** The server's default threshold (RFU) when the kit sets none. */
export const DEFAULT_THRESHOLD = 50;

const evenSplit = (n: number): string[] => Array.from({ length: n }, () => String(Number((1 / n).toPrecision(6))));
const gammaDraft = (n: number): GammaDraft => ({ mx: evenSplit(n), mu: '1000', sigma: '0.15', beta: '1', xiB: '0', xiF: '0' });

/** The form's start (EuroForMix's defaults: drop-in 0.05, λ 0.01; θ 0.01 as the semi-continuous seed analyses): two contributors, fitted from 4 starts with seed 1. */
export function continuousDraft(): ContinuousDraft {
  return {
    contributors: '2',
    degradation: false,
    backwardStutter: false,
    forwardStutter: false,
    dropIn: '0.05',
    dropInLambda: '0.01',
    theta: '0.01',
    threshold: 'kit',
    analyticalThreshold: String(DEFAULT_THRESHOLD),
    personOfInterestTypedUnderHd: true,
    normalizeFrequencies: false,
    mode: 'fit',
    starts: '4',
    seed: '1',
    fixed: { hp: gammaDraft(2), hd: gammaDraft(2) },
  };
}

/** The number of contributors changed: each hypothesis's mixture proportions resized to an even split when the count is valid. */
export function withContributorCount(draft: ContinuousDraft, contributors: string): ContinuousDraft {
  const n = Number(contributors);
  if (!/^\d+$/.test(contributors.trim()) || n < 1 || n > MAX_CONTINUOUS_CONTRIBUTORS || n === draft.fixed.hp.mx.length) return { ...draft, contributors };
  return { ...draft, contributors, fixed: { hp: { ...draft.fixed.hp, mx: evenSplit(n) }, hd: { ...draft.fixed.hd, mx: evenSplit(n) } } };
}

/** A switch set: forward stutter brings backward stutter with it, and backward stutter off takes forward off. */
export function withSwitch(draft: ContinuousDraft, field: ContinuousSwitch, checked: boolean): ContinuousDraft {
  const next = { ...draft, [field]: checked };
  if (field === 'forwardStutter' && checked) next.backwardStutter = true;
  if (field === 'backwardStutter' && !checked) next.forwardStutter = false;
  return next;
}

/** A searched model used: its contributor count and switches, its parameters fitted (the search fitted them). */
export function withModel(draft: ContinuousDraft, contributors: number, model: ContinuousModelSwitches): ContinuousDraft {
  return { ...withContributorCount(draft, String(contributors)), degradation: model.degradation, backwardStutter: model.backwardStutter, forwardStutter: model.forwardStutter && model.backwardStutter, mode: 'fit' };
}

/** A fixed parameter typed: `index` names the contributor of `mx`. */
export function withFixed(draft: ContinuousDraft, hypothesis: Hypothesis, field: GammaField, value: string, index = 0): ContinuousDraft {
  const g = draft.fixed[hypothesis];
  const changed = field === 'mx' ? { ...g, mx: g.mx.map((v, i) => (i === index ? value : v)) } : { ...g, [field]: value };
  return { ...draft, fixed: { ...draft.fixed, [hypothesis]: changed } };
}

/** A number as typed ("0.05", or "0,05" with a decimal comma); null when it is not one. */
function numberOf(text: string): number | null {
  const trimmed = text.trim().replace(',', '.');
  const value = Number(trimmed);
  return trimmed !== '' && Number.isFinite(value) ? value : null;
}

type Rule = { test: (v: number) => boolean; message: string };
const BELOW_ONE: Rule = { test: (v) => v >= 0 && v < 1, message: 'A number from 0 to below 1, e.g. 0.05' };
const POSITIVE: Rule = { test: (v) => v > 0, message: 'A number above 0' };
const PROPORTION: Rule = { test: (v) => v >= 0 && v <= 1, message: 'A proportion from 0 to 1' };
const whole = (low: number, high: number): Rule => ({ test: (v) => Number.isInteger(v) && v >= low && v <= high, message: `A whole number from ${low} to ${high}` });

/** Each field's message, keyed by field (`hp.mx.0`, `hd.sigma` for the fixed parameters). */
export type ContinuousFieldErrors = Partial<Record<string, string>>;

/** What the draft gives the request: the settings, or each field's message. */
export type ContinuousSettings = Pick<
  ContinuousLrBody,
  'contributors' | 'dropIn' | 'dropInLambda' | 'theta' | 'model' | 'parameters' | 'personOfInterestTypedUnderHd' | 'normalizeFrequencies'
> & { analyticalThreshold: number | null };

/** The names Run's list gives the fields. */
const FIELD_NAMES: Record<string, string> = {
  contributors: 'Number of contributors',
  dropIn: 'Drop-in (c)',
  dropInLambda: 'Drop-in peak height rate (λ)',
  theta: 'θ',
  analyticalThreshold: 'Analytical threshold',
  starts: 'Starts',
  seed: 'Seed',
  mx: 'Mixture proportion',
  mu: 'Peak height expectation (μ)',
  sigma: 'Coefficient of variation (σ)',
  beta: 'Degradation slope (β)',
  xiB: 'Backward stutter (ξB)',
  xiF: 'Forward stutter (ξF)',
};

/** A field's name for Run's list: `hp.mx.1` reads "Hp: Mixture proportion 2". */
export function fieldName(key: string): string {
  const [head, field, index] = key.split('.');
  if (field === undefined) return FIELD_NAMES[head!] ?? head!;
  return `${head === 'hp' ? 'Hp' : 'Hd'}: ${FIELD_NAMES[field] ?? field}${index === undefined ? '' : ` ${Number(index) + 1}`}`;
}

/**
 * Reads the form. Hp holds the person of interest and the known contributors, so there are at least known + 1
 * contributors; fixed mixture proportions sum to 1 per hypothesis; β, ξB and ξF are read only with their model part on.
 */
export function readContinuousDraft(draft: ContinuousDraft, knownContributors: number): { settings: ContinuousSettings; errors: null } | { settings: null; errors: ContinuousFieldErrors } {
  const errors: ContinuousFieldErrors = {};
  const read = (key: string, text: string, rule: Rule): number => {
    const value = numberOf(text);
    if (text.trim() === '') errors[key] = REQUIRED;
    else if (value === null || !rule.test(value)) errors[key] = rule.message;
    return value ?? 0;
  };
  const contributors = read('contributors', draft.contributors, whole(1, MAX_CONTINUOUS_CONTRIBUTORS));
  if (!errors.contributors && contributors < knownContributors + 1) {
    errors.contributors = `At least ${knownContributors + 1}: the person of interest and ${knownContributors} known contributor${knownContributors === 1 ? '' : 's'}`;
  }
  const dropIn = read('dropIn', draft.dropIn, BELOW_ONE);
  const dropInLambda = read('dropInLambda', draft.dropInLambda, POSITIVE);
  const theta = read('theta', draft.theta, BELOW_ONE);
  const analyticalThreshold = draft.threshold === 'typed' ? read('analyticalThreshold', draft.analyticalThreshold, POSITIVE) : null;
  const model = { degradation: draft.degradation, backwardStutter: draft.backwardStutter, forwardStutter: draft.forwardStutter };
  let parameters: ContinuousLrBody['parameters'];
  if (draft.mode === 'fit') {
    parameters = { mode: 'fit', starts: read('starts', draft.starts, whole(1, 20)), seed: read('seed', draft.seed, whole(0, 2 ** 31 - 1)) };
  } else {
    const gamma = (h: Hypothesis) => {
      const g = draft.fixed[h];
      const mx = g.mx.map((text, i) => read(`${h}.mx.${i}`, text, PROPORTION));
      if (!g.mx.some((_, i) => errors[`${h}.mx.${i}`]) && Math.abs(mx.reduce((a, b) => a + b, 0) - 1) > 1e-6) errors[`${h}.mx`] = 'The mixture proportions add up to 1';
      return {
        mx,
        mu: read(`${h}.mu`, g.mu, POSITIVE),
        sigma: read(`${h}.sigma`, g.sigma, POSITIVE),
        beta: draft.degradation ? read(`${h}.beta`, g.beta, POSITIVE) : 1,
        xiB: draft.backwardStutter ? read(`${h}.xiB`, g.xiB, BELOW_ONE) : 0,
        xiF: draft.forwardStutter ? read(`${h}.xiF`, g.xiF, BELOW_ONE) : 0,
      };
    };
    parameters = { mode: 'fixed', hp: gamma('hp'), hd: gamma('hd') };
  }
  if (Object.keys(errors).length > 0) return { settings: null, errors };
  return {
    settings: { contributors, dropIn, dropInLambda, theta, analyticalThreshold, model, parameters, personOfInterestTypedUnderHd: draft.personOfInterestTypedUnderHd, normalizeFrequencies: draft.normalizeFrequencies },
    errors: null,
  };
}
