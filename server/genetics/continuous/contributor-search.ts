import type { ContinuousLrResult } from '../../../core/schemas/continuous';
import { prepareEvidence } from './continuous-likelihood';
import { continuousLr, type ContinuousCase } from './continuous-lr';
import { ContinuousModelError, type ModelSwitches } from './continuous-types';
import { genotypeList } from './hypothesis-marker';

/**
 * Most joint genotypes (summed over markers, both hypotheses and every model of the search) a search fits. Measured
 * (CPU time, one process): 12 ns per joint genotype and evaluation on the four-marker stain of the unit test without
 * stutter (its 1..4 search, 140,400 joint genotypes, in 3.6 s), 46 ns for four unknowns over ESX17's compiled markers
 * with degradation and both stutters, 80 ns for its markers too large to compile (nested-marker.ts); ~1,000–1,500
 * evaluations per hypothesis with two starts: 150,000 is at most ~20 s of CPU, within the issue's 30 s.
 */
export const MAX_SEARCH_JOINT_GENOTYPES = 150_000;

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
}

/**
 * The models of a search over `range` × `models`, in the order fitted (contributor count, then model), each with its
 * work; a count below the person of interest and the known contributors is refused, as is a model whose joint
 * genotypes pass `maxJointGenotypes` (null: no bound here).
 */
export function planContributorSearch(c: ContinuousCase, range: readonly [number, number], models: readonly ModelSwitches[], maxJointGenotypes: number | null): PlannedModel[] {
  if (c.parameters.mode !== 'fit') throw new ContinuousModelError('A search over the number of contributors fits each model: give "fit", not fixed parameters.');
  const known = c.knownContributors.length;
  const genotypes = prepareEvidence(c.evidence).markers.map((m) => genotypeList(m.alleleCount).length);
  return Array.from({ length: range[1] - range[0] + 1 }, (_, i) => range[0] + i).flatMap((k) =>
    models.map((model): PlannedModel => {
      if (k < known + 1) return { contributors: k, model, jointGenotypes: 0, refusal: `Hp holds the person of interest and ${known} known contributor(s): at least ${known + 1} contributors.` };
      const jointGenotypes = genotypes.reduce((s, g) => s + g ** (k - known) + g ** (k - 1 - known), 0);
      const refusal =
        maxJointGenotypes !== null && jointGenotypes > maxJointGenotypes
          ? `${k - known} unknowns under Hd sum ${jointGenotypes} joint genotypes over the markers per evaluation, more than the ${maxJointGenotypes} one fit takes in about 30 s; condition on known contributors to search it.`
          : null;
      return { contributors: k, model, jointGenotypes, refusal };
    }),
  );
}

/** Peaks observed over the threshold in every replicate: the n of BIC. */
export function observedPeaks(c: ContinuousCase): number {
  return c.evidence.replicates.reduce((s, r) => s + [...r.entries()].reduce((t, [marker, p]) => t + p.filter((x) => x.height >= c.evidence.analyticalThreshold(marker)).length, 0), 0);
}

/** Fits one model of a search under Hp and Hd (EuroForMix `contLikSearch`, one entry): log-likelihoods, AIC = 2k − 2 log L and BIC = k log n − 2 log L under Hd. */
export function fitSearchedModel(c: ContinuousCase, contributors: number, model: ModelSwitches, peaks: number): SearchedModel {
  const result = continuousLr({ ...c, contributors, evidence: { ...c.evidence, model }, deconvolution: false });
  const [hp, hd] = result.hypotheses;
  const parameters = freeParameters(contributors, model);
  const lHd = hd!.logLikelihood;
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
  const planned = planContributorSearch(c, [from, range[1]], models, null);
  let work = 0;
  for (const p of planned) {
    work += p.jointGenotypes;
    if (work > MAX_SEARCH_JOINT_GENOTYPES)
      throw new ContinuousModelError(`A search up to ${p.contributors} contributors sums ${work} joint genotypes over the markers, more than the ${MAX_SEARCH_JOINT_GENOTYPES} a search fits in about 30 s; search fewer contributors or condition on known ones.`);
  }
  const peaks = observedPeaks(c);
  return markBest(planned.map((p) => fitSearchedModel(c, p.contributors, p.model, peaks)));
}
