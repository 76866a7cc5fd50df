// Runs in a worker thread (server/jobs/worker-pool.ts), ARCHITECTURE.md "Heavy work off the request thread": a
// number-of-contributors search fits up to a dozen models, each thousands of exact sums (tens of seconds in all).
// First: this worker thread runs below the request thread's priority (background-priority.ts).
import './background-priority';
import type { MessagePort } from 'node:worker_threads';
import type { GammaParametersUsed } from '../../core/schemas/continuous';
import { fitSearchedModel, observedPeaks } from '../genetics/continuous/contributor-search';
import { continuousCase, type ContinuousRequest } from '../genetics/continuous/continuous-request';
import type { ContinuousCase } from '../genetics/continuous/continuous-lr';
import { ContinuousModelError, type ModelSwitches } from '../genetics/continuous/continuous-types';

export interface ContributorSearchTask {
  request: ContinuousRequest;
  /** The models to fit, in order (the refused ones left out by the caller). */
  models: { index: number; contributors: number; model: ModelSwitches }[];
  /** Where each model's start and figures go as it is fitted (ContributorSearchProgress); closed at the end. */
  port: MessagePort;
}

/** A model of the search fitted: its index in the job's list and its figures. */
export interface FittedSearchModel {
  index: number;
  logLikelihoodHp: number | null;
  logLikelihoodHd: number | null;
  aic: number | null;
  bic: number | null;
  log10Lr: number | null;
  parameters: number;
  fittedHp: GammaParametersUsed | null;
  fittedHd: GammaParametersUsed | null;
  elapsedMs: number;
}

/** A model the worker could not fit: the model's own refusal (a forward stutter without the backward one). */
export interface RefusedSearchModel {
  index: number;
  refused: string;
}

export type SearchModelOutcome = FittedSearchModel | RefusedSearchModel;

export type ContributorSearchProgress = { fitting: number } | { outcome: SearchModelOutcome };

/** One model fitted, or its refusal; anything else is thrown. */
function fitOne(c: ContinuousCase, peaks: number, index: number, contributors: number, model: ModelSwitches): SearchModelOutcome {
  const started = performance.now();
  try {
    const s = fitSearchedModel(c, contributors, model, peaks);
    const [hp, hd] = s.result.hypotheses;
    return {
      index,
      logLikelihoodHp: s.logLikelihoodHp,
      logLikelihoodHd: s.logLikelihoodHd,
      aic: s.aic,
      bic: s.bic,
      log10Lr: s.log10Lr,
      parameters: s.parameters,
      fittedHp: hp!.parameters,
      fittedHd: hd!.parameters,
      elapsedMs: Math.round(performance.now() - started),
    };
  } catch (error) {
    if (error instanceof ContinuousModelError) return { index, refused: error.message };
    throw error;
  }
}

/** Fits each model in turn, saying over the port which one starts and what each gave; returns every outcome. */
export default function contributorSearchWorker({ request, models, port }: ContributorSearchTask): SearchModelOutcome[] {
  try {
    const c = continuousCase(request);
    const peaks = observedPeaks(c);
    return models.map(({ index, contributors, model }) => {
      port.postMessage({ fitting: index } satisfies ContributorSearchProgress);
      const outcome = fitOne(c, peaks, index, contributors, model);
      port.postMessage({ outcome } satisfies ContributorSearchProgress);
      return outcome;
    });
  } finally {
    port.close();
  }
}
