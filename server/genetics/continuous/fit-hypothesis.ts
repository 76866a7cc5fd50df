import type { ContinuousFitReport } from '../../../core/schemas/continuous';
import { seededRandom } from '../../../core/seeded-random';
import { logLikelihood, type HypothesisModel, type LogLikelihood } from './continuous-likelihood';
import type { GammaParameters, ModelSwitches } from './continuous-types';
import { GradientScratch, logLikelihoodGradient } from './likelihood-gradient';
import { fromCoordinates, toCoordinates } from './parameter-space';
import { minimize, type Minimum, type StopReason } from './quasi-newton';

/** Two maxima this close (natural log) are the same optimum (EuroForMix's difftol). */
export const AGREEMENT = 0.01;

/** How a fit searched (its seed, starts and how many agree, convergence) is the answer's ContinuousFitReport. */
export type FitReport = ContinuousFitReport;

export interface FittedHypothesis {
  parameters: GammaParameters | null;
  logLikelihood: LogLikelihood | null;
  fit: FitReport;
}

/** The first start: Mx in falling shares, μ from half the mean summed height, σ 0.2, β 1, ξB 0.06, ξF 0.02 (EuroForMix's pre-search values). */
function firstStart(model: HypothesisModel): GammaParameters {
  const k = model.contributors;
  const weights = Array.from({ length: k }, (_, i) => k - i);
  const total = weights.reduce((s, w) => s + w, 0);
  const sums = model.evidence.markers.map((m) => m.peaks.reduce((s, r) => s + r.reduce((a, y) => a + y, 0), 0) / Math.max(1, m.peaks.length));
  const meanSum = sums.reduce((s, y) => s + y, 0) / sums.length;
  return { mx: weights.map((w) => w / total), mu: Math.max(meanSum / 2, 1), sigma: 0.2, beta: 1, xiB: 0.06, xiF: 0.02 };
}

/** Another start drawn from the seeded sequence around the first. */
function randomStart(first: GammaParameters, random: () => number): GammaParameters {
  const draws = first.mx.map(() => -Math.log(1 - random()));
  const total = draws.reduce((s, d) => s + d, 0);
  return {
    mx: draws.map((d) => d / total),
    mu: first.mu * Math.exp(random() - 0.5),
    sigma: 0.1 + 0.3 * random(),
    beta: 0.6 + 0.5 * random(),
    xiB: 0.01 + 0.14 * random(),
    xiF: 0.005 + 0.045 * random(),
  };
}

const STOP_NOTES: Record<Exclude<StopReason, 'converged'>, string> = {
  'iteration limit': 'The best start reached the iteration limit before converging.',
  'no descent': 'The best start stopped where no step improved the likelihood but the gradient was not flat.',
  'not finite at the start': 'No start had a likelihood above 0.',
};

/**
 * The maximum-likelihood parameters of a hypothesis (GENETICS.md "Continuous model"; EuroForMix `calcMLE` uses a
 * pre-search and nlm from several starts): BFGS from `starts` deterministic starts (the first from the data, the
 * others from `seed`; `from`, when given, one more), the best kept; the answer says how many starts agree on it. With
 * `warm`, `from` alone first (a search's large model, from the optimum of one contributor fewer), and the seeded starts
 * as well only when it does not converge or ends below `warm.reach` (the smaller model's maximum, which this one reaches
 * with the new share at 0). Never throws on data it cannot explain: the report says why.
 */
export function fitHypothesis(model: HypothesisModel, switches: ModelSwitches, starts: number, seed: number, from?: GammaParameters, warm?: { reach: number }): FittedHypothesis {
  const scratch = new GradientScratch();
  // The last evaluation's point and per-marker values: the model's buffers hold it, which the gradient there reuses.
  let last: { x: readonly number[]; perMarker: number[] } | null = null;
  const objective = (x: readonly number[]) => {
    last = null;
    const p = fromCoordinates(x, model.contributors, switches);
    if (p.xiB + p.xiF >= 1 || !Number.isFinite(p.mu) || p.sigma <= 0) return Infinity;
    const l = logLikelihood(model, p, scratch.likelihood);
    last = { x: [...x], perMarker: l.perMarker };
    return -l.total;
  };
  const gradient = (x: readonly number[]) => {
    const known = last && last.x.every((v, i) => v === x[i]) ? last.perMarker : undefined;
    return logLikelihoodGradient(model, x, switches, scratch, known).map((d) => -d);
  };
  const random = seededRandom(seed);
  const first = firstStart(model);
  const seeded = () => Array.from({ length: starts }, (_, i) => minimize(objective, toCoordinates(i === 0 ? first : randomStart(first, random), switches), gradient));
  let results: Minimum[];
  if (from && warm) {
    // The warm start alone unless it fails: over one marker it can sit by a ridge where ln L grows without bound as
    // σ → 0 (peaks matched exactly), or stop on a plateau where the new share does nothing but cost.
    const own = minimize(objective, toCoordinates(from, switches), gradient);
    results = own.reason === 'converged' && -own.value > warm.reach - AGREEMENT ? [own] : [own, ...seeded()];
  } else {
    results = seeded();
    // A caller's own start besides (a database search's candidate: Hd's fit with the candidate in an unknown's place).
    if (from) results.push(minimize(objective, toCoordinates(from, switches), gradient));
  }
  const evaluations = results.reduce((s, r) => s + r.evaluations, 0);
  let best = results[0]!;
  for (const r of results) if (r.value < best.value) best = r;
  const report = { seed, starts: results.length, evaluations, iterations: best.iterations };
  if (!Number.isFinite(best.value)) {
    return { parameters: null, logLikelihood: null, fit: { ...report, agreeing: 0, converged: false, note: 'No parameter values give the evidence a likelihood above 0 under this hypothesis (from every start): the model cannot explain it. Check the number of contributors, the drop-in probability and the stutter model.' } };
  }
  const agreeing = results.filter((r) => Number.isFinite(r.value) && r.value - best.value < AGREEMENT).length;
  const parameters = canonicalOrder(fromCoordinates(best.x, model.contributors, switches), model);
  return {
    parameters,
    logLikelihood: logLikelihood(model, parameters, scratch.likelihood),
    fit: { ...report, agreeing, converged: best.reason === 'converged', note: best.reason === 'converged' ? null : STOP_NOTES[best.reason] },
  };
}

/** The unknowns' Mx in falling order: unknowns typed nowhere are exchangeable, so this changes no likelihood and makes answers comparable. */
function canonicalOrder(p: GammaParameters, model: HypothesisModel): GammaParameters {
  const free = Array.from({ length: model.contributors }, (_, k) => k).filter((k) => model.markers.every((m) => m.genotypes[k]! < 0));
  const shares = free.map((k) => p.mx[k]!).sort((a, b) => b - a);
  const mx = [...p.mx];
  free.forEach((k, i) => (mx[k] = shares[i]!));
  return { ...p, mx };
}
