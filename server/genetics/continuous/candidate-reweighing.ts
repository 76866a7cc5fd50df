import type { ContinuousFitReport, GammaParametersUsed } from '../../../core/schemas/continuous';
import { logLikelihood, prepareEvidence, prepareHypothesis, type PreparedEvidence } from './continuous-likelihood';
import type { GammaParameters, ModelSwitches, TypedPerson } from './continuous-types';
import { hdUnknowns, hpParametersAt, searchHdModel, type ContributorSearchCase } from './candidate-tables';
import { fitHypothesis } from './fit-hypothesis';

/** How a search's fits are started: the calculator's multistart (starts, seed). */
export interface SearchFitting {
  model: ModelSwitches;
  starts: number;
  seed: number;
}

/** Hd fitted once for a search: its parameters and log-likelihood (natural log), or why none explains the evidence. */
export interface SearchHdFit {
  parameters: GammaParametersUsed | null;
  logLikelihood: number | null;
  fit: ContinuousFitReport;
}

/** Hd's maximum-likelihood fit without any candidate (GENETICS.md "Continuous model": database search; EuroForMix `efm_DBsearch` mlefit_hd). */
export function fitSearchHd(c: ContributorSearchCase, fitting: SearchFitting, evidence: PreparedEvidence = prepareEvidence(c.evidence)): SearchHdFit {
  const fitted = fitHypothesis(searchHdModel(c, evidence), fitting.model, fitting.starts, fitting.seed);
  return { parameters: fitted.parameters && { ...fitted.parameters, mx: [...fitted.parameters.mx] }, logLikelihood: fitted.logLikelihood?.total ?? null, fit: fitted.fit };
}

/** A candidate weighed again with its own fit: the LR of maximised likelihoods and the parameters under Hp (and Hd when refitted). */
export interface ReweighedCandidate {
  log10Lr: number | null;
  hp: GammaParametersUsed | null;
  hpFit: ContinuousFitReport | null;
  /** The maximised log-likelihoods (natural log) of the two fits the LR divides: Hp's with the candidate, Hd's (null: none explains the evidence). */
  logLikelihoodHp: number | null;
  logLikelihoodHd: number | null;
  /** Hd's fit with the candidate among the typed persons (θ counts it); null when Hd's search fit stands (θ 0 or not counted). */
  hd: GammaParametersUsed | null;
}

/**
 * A candidate's exact continuous LR (EuroForMix `efm_DBsearch` with ITYPE QUAN): Hp fitted by maximum likelihood with
 * the candidate as a contributor — the calculator's starts and, besides, Hd's fit with the candidate in each unknown's
 * place, so it never ends below the scan's likelihood — over Hd's maximised likelihood, refitted with the candidate
 * counted by θ when it is typed under Hd (θ > 0).
 */
export function reweighCandidate(c: ContributorSearchCase, fitting: SearchFitting, hd: SearchHdFit, candidate: TypedPerson, evidence: PreparedEvidence = prepareEvidence(c.evidence)): ReweighedCandidate {
  const known = c.knownContributors.length;
  const unknowns = hdUnknowns(c);
  const labels = { contributor: (k: number) => (k === 0 ? 'Candidate' : k <= known ? `Known contributor ${k}` : `Unknown ${k - known}`), nonContributor: (i: number) => `Known non-contributor ${i + 1}` };
  const hpModel = prepareHypothesis(evidence, { contributors: [candidate, ...c.knownContributors, ...new Array<null>(unknowns - 1).fill(null)], nonContributors: c.knownNonContributors }, labels);
  // The best of the scan's placements starts the Hp fit besides the calculator's starts.
  const placements = hd.parameters ? Array.from({ length: unknowns }, (_, j) => hpParametersAt(hd.parameters as GammaParameters, known, j)) : [];
  let bestStart: GammaParameters | undefined;
  let bestValue = -Infinity;
  for (const p of placements) {
    const value = logLikelihood(hpModel, p).total;
    if (value > bestValue) [bestValue, bestStart] = [value, p];
  }
  const hp = fitHypothesis(hpModel, fitting.model, fitting.starts, fitting.seed, bestStart);
  let hdTotal = hd.logLikelihood;
  let hdRefit: GammaParametersUsed | null = null;
  if (c.personOfInterestTypedUnderHd && c.evidence.theta > 0) {
    const model = prepareHypothesis(evidence, { contributors: [...c.knownContributors, ...new Array<null>(unknowns).fill(null)], nonContributors: [candidate, ...c.knownNonContributors] }, { contributor: (k) => (k < known ? `Known contributor ${k + 1}` : `Unknown ${k - known + 1}`), nonContributor: (i) => (i === 0 ? 'Candidate' : `Known non-contributor ${i}`) });
    const refit = fitHypothesis(model, fitting.model, fitting.starts, fitting.seed, hd.parameters ?? undefined);
    hdTotal = refit.logLikelihood?.total ?? null;
    hdRefit = refit.parameters && { ...refit.parameters, mx: [...refit.parameters.mx] };
  }
  const hpTotal = hp.logLikelihood?.total ?? null;
  const log10Lr = hpTotal === null || hdTotal === null || !Number.isFinite(hdTotal) || !Number.isFinite(hpTotal) ? null : (hpTotal - hdTotal) / Math.LN10;
  return { log10Lr, hp: hp.parameters && { ...hp.parameters, mx: [...hp.parameters.mx] }, hpFit: hp.fit, logLikelihoodHp: hpTotal, logLikelihoodHd: hdTotal, hd: hdRefit };
}
