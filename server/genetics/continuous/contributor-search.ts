import type { ContinuousLrResult } from '../../../core/schemas/continuous';
import { prepareEvidence } from './continuous-likelihood';
import { continuousLr, type ContinuousCase, type WarmStart } from './continuous-lr';
import { ContinuousModelError, type GammaParameters, type ModelSwitches } from './continuous-types';
import { genotypeList } from './hypothesis-marker';

/**
 * Most joint genotypes (summed over markers, both hypotheses and every model of the search) a search fits. Measured
 * (CPU time, one process, likelihood-gradient.ts's gradients, on the shared 2-core machine under load): the ESX17
 * 3-stain case with degradation and both stutters and no known contributor, 1..4 contributors (1,633,511 joint
 * genotypes, 1.49 million of them the four unknowns under Hd, ~0.1 s an evaluation) in 27 s, its 4-contributor model
 * fitted from the 3-contributor optimum (WARM_START_JOINT_GENOTYPES) in about 23 s.
 */
export const MAX_SEARCH_JOINT_GENOTYPES = 1_700_000;

/**
 * A model summing more joint genotypes than this per evaluation is fitted from one start, the optimum of the same
 * model with one contributor fewer and a new contributor of 5% (EuroForMix's model search fits each from scratch):
 * the ESX17 4-unknown model takes about 30 BFGS iterations so (Hd 14 s of CPU), where two seeded starts take 48 s and
 * disagreed. Below it a model keeps the request's seeded starts.
 */
export const WARM_START_JOINT_GENOTYPES = 150_000;

/** The share of the new contributor in a start from one contributor fewer; stutter proportions start at 1% at least (at 0 their coordinate's gradient vanishes). */
const NEW_SHARE = 0.05;
const LEAST_STUTTER = 0.01;

/** A start for k + 1 contributors from an optimum for k: every share × 0.95 and a new unknown of 5% last. */
export function startFromBelow(p: GammaParameters, model: ModelSwitches): GammaParameters {
  const stutter = (on: boolean, xi: number) => (on ? Math.max(xi, LEAST_STUTTER) : xi);
  return { ...p, mx: [...p.mx.map((m) => m * (1 - NEW_SHARE)), NEW_SHARE], xiB: stutter(model.backwardStutter, p.xiB), xiF: stutter(model.forwardStutter, p.xiF) };
}

/** One model of the search: its fit under both hypotheses and its information criteria under Hd (the evidence without the person of interest). */
export interface SearchedModel {
  contributors: number;
  model: ModelSwitches;
  /** Free parameters: K − 1 mixture proportions, μ, σ and one per part of the model that is on. */
  parameters: number;
  logLikelihoodHd: number | null;
  logLikelihoodHp: number | null;
  /** AIC = 2k − 2 log L and BIC = k log n − 2 log L under Hd, n the peaks observed over the threshold in every replicate. */
  aic: number | null;
  bic: number | null;
  log10Lr: number | null;
  best: boolean;
  /** Why its figures may not be a maximum: a hypothesis whose fit did not converge (over one marker ln L can grow without bound as σ → 0), or that nothing explains. */
  note: string | null;
  result: ContinuousLrResult;
}

/** Free parameters of a model (AIC's k): K − 1 mixture proportions, μ, σ, and β, ξB, ξF where on. */
export const freeParameters = (k: number, m: ModelSwitches) => k - 1 + 2 + (m.degradation ? 1 : 0) + (m.backwardStutter ? 1 : 0) + (m.forwardStutter ? 1 : 0);

/** One model a search would fit: its contributor count, switches, the joint genotypes its exact sums take per evaluation (both hypotheses, every marker), or why it cannot be fitted. */
export interface PlannedModel {
  contributors: number;
  model: ModelSwitches;
  jointGenotypes: number;
  refusal: string | null;
  /** Fitted from the optimum of one contributor fewer (over WARM_START_JOINT_GENOTYPES), which the search fits first. */
  fromBelow: boolean;
}

/**
 * The models of a search over `range` × `models`, in the order fitted (contributor count, then model), each with its
 * work; refused with the reason: a count below the person of interest and the known contributors, a model that would
 * take the search's work past MAX_SEARCH_JOINT_GENOTYPES, and a model over WARM_START_JOINT_GENOTYPES whose count
 * minus one the search does not fit.
 */
export function planContributorSearch(c: ContinuousCase, range: readonly [number, number], models: readonly ModelSwitches[]): PlannedModel[] {
  if (c.parameters.mode !== 'fit') throw new ContinuousModelError('A search over the number of contributors fits each model: give "fit", not fixed parameters.');
  const known = c.knownContributors.length;
  const genotypes = prepareEvidence(c.evidence).markers.map((m) => genotypeList(m.alleleCount).length);
  const planned: PlannedModel[] = [];
  let work = 0;
  for (let k = range[0]; k <= range[1]; k++)
    for (const model of models) {
      if (k < known + 1) {
        planned.push({ contributors: k, model, jointGenotypes: 0, refusal: `Hp holds the person of interest and ${known} known contributor(s): at least ${known + 1} contributors.`, fromBelow: false });
        continue;
      }
      const jointGenotypes = genotypes.reduce((s, g) => s + g ** (k - known) + g ** (k - 1 - known), 0);
      const fromBelow = jointGenotypes > WARM_START_JOINT_GENOTYPES;
      const below = planned.some((p) => p.contributors === k - 1 && sameModel(p.model, model) && !p.refusal);
      const refusal =
        work + jointGenotypes > MAX_SEARCH_JOINT_GENOTYPES
          ? `A search up to ${k} contributors sums ${work + jointGenotypes} joint genotypes over the markers, more than the ${MAX_SEARCH_JOINT_GENOTYPES} a search fits in about 30 s; search fewer contributors or condition on known ones.`
          : fromBelow && !below
            ? `${k - known} unknowns under Hd sum ${jointGenotypes} joint genotypes over the markers per evaluation: a model this large is fitted from the optimum of ${k - 1} contributors, so search from ${k - 1} (or fewer).`
            : null;
      if (!refusal) work += jointGenotypes;
      planned.push({ contributors: k, model, jointGenotypes, refusal, fromBelow: fromBelow && !refusal });
    }
  return planned;
}

const sameModel = (a: ModelSwitches, b: ModelSwitches) => a.degradation === b.degradation && a.backwardStutter === b.backwardStutter && a.forwardStutter === b.forwardStutter;

/** The starts of both hypotheses of a model of `contributors` with these switches fitted from below, and the ln L each must reach (the smaller model's), if that model was fitted. */
export function fittedBelow(searched: readonly Pick<SearchedModel, 'contributors' | 'model' | 'result'>[], contributors: number, model: ModelSwitches): WarmStart | null {
  const below = searched.find((s) => s.contributors === contributors - 1 && sameModel(s.model, model));
  const [hp, hd] = below?.result.hypotheses ?? [];
  if (!hp?.parameters || !hd?.parameters) return null;
  return { hp: startFromBelow(hp.parameters, model), hd: startFromBelow(hd.parameters, model), reach: { hp: hp.logLikelihood ?? -Infinity, hd: hd.logLikelihood ?? -Infinity } };
}

/** Peaks observed over the threshold in every replicate: the n of BIC. */
export function observedPeaks(c: ContinuousCase): number {
  return c.evidence.replicates.reduce((s, r) => s + [...r.entries()].reduce((t, [marker, p]) => t + p.filter((x) => x.height >= c.evidence.analyticalThreshold(marker)).length, 0), 0);
}

/** Fits one model of a search under Hp and Hd (EuroForMix `contLikSearch`, one entry): log-likelihoods, AIC = 2k − 2 log L and BIC = k log n − 2 log L under Hd. */
export function fitSearchedModel(c: ContinuousCase, contributors: number, model: ModelSwitches, peaks: number, from?: WarmStart | null): SearchedModel {
  const fitting = c.parameters.mode === 'fit' && from ? { ...c.parameters, from } : c.parameters;
  const result = continuousLr({ ...c, contributors, evidence: { ...c.evidence, model }, deconvolution: false, parameters: fitting });
  const [hp, hd] = result.hypotheses;
  const parameters = freeParameters(contributors, model);
  const lHd = hd!.logLikelihood;
  const doubts = [hp!, hd!].flatMap((h) => (h.parameters && h.fit?.converged !== false ? [] : [`${h.hypothesis}: ${h.note ?? 'not fitted.'}`]));
  return {
    contributors,
    model,
    parameters,
    logLikelihoodHd: lHd,
    logLikelihoodHp: hp!.logLikelihood,
    aic: lHd === null ? null : 2 * parameters - 2 * lHd,
    bic: lHd === null ? null : parameters * Math.log(peaks) - 2 * lHd,
    log10Lr: result.log10Lr,
    best: false,
    note: doubts.length ? doubts.join(' ') : null,
    result,
  };
}

/** Marks the lowest AIC best (ties: fewer parameters, then the earlier model); the others not. */
export function markBest<T extends Pick<SearchedModel, 'aic' | 'parameters' | 'best'>>(searched: T[]): T[] {
  let best: T | null = null;
  for (const s of searched) {
    s.best = false;
    if (s.aic !== null && (!best || s.aic < best.aic! || (s.aic === best.aic && s.parameters < best.parameters))) best = s;
  }
  if (best) best.best = true;
  return searched;
}

/** A step of a search as it runs: a model's fit starts, a model is fitted, or its fit refused the model (the reason). Indices are the plan's. */
export type SearchStep = { fitting: number } | { fitted: number; searched: SearchedModel } | { refused: number; reason: string };

/**
 * Fits the planned models in order, the refused ones left out, a model planned `fromBelow` from the optimum of one
 * contributor fewer (else the case's seeded starts): the one search of POST continuous-lr and of the job. Yields as
 * each fit starts and ends; a model its fit refuses (a ContinuousModelError) is a step, anything else is thrown.
 */
export function* fitPlannedModels(c: ContinuousCase, planned: readonly PlannedModel[]): Generator<SearchStep, void> {
  const peaks = observedPeaks(c);
  const searched: SearchedModel[] = [];
  for (const [index, p] of planned.entries()) {
    if (p.refusal) continue;
    yield { fitting: index };
    try {
      const s = fitSearchedModel(c, p.contributors, p.model, peaks, p.fromBelow ? fittedBelow(searched, p.contributors, p.model) : null);
      searched.push(s);
      yield { fitted: index, searched: s };
    } catch (error) {
      if (!(error instanceof ContinuousModelError)) throw error;
      yield { refused: index, reason: error.message };
    }
  }
}

/**
 * The number of contributors and model search (EuroForMix `contLikSearch`): each contributor count of `range` and
 * each of `models` fitted under Hp and Hd, side by side with log-likelihood, AIC and BIC under Hd; the lowest AIC
 * is marked best (ties: fewer parameters, then the earlier model). Refuses, before any fit, a search whose exact
 * sums pass MAX_SEARCH_JOINT_GENOTYPES, naming the contributor count that does. Deterministic: every fit is.
 */
export function searchContributors(c: ContinuousCase, range: readonly [number, number], models: readonly ModelSwitches[]): SearchedModel[] {
  const known = c.knownContributors.length;
  const from = Math.max(range[0], known + 1);
  if (c.parameters.mode === 'fit' && range[1] < from) throw new ContinuousModelError(`Hp holds the person of interest and ${known} known contributor(s): search from ${known + 1} contributors.`);
  const planned = planContributorSearch(c, [from, range[1]], models);
  const refused = planned.find((p) => p.refusal);
  if (refused) throw new ContinuousModelError(refused.refusal!);
  const searched: SearchedModel[] = [];
  for (const step of fitPlannedModels(c, planned)) {
    if ('refused' in step) throw new ContinuousModelError(step.reason);
    if ('searched' in step) searched.push(step.searched);
  }
  return markBest(searched);
}
