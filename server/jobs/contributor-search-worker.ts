// Runs in a worker thread (server/jobs/worker-pool.ts), ARCHITECTURE.md "Heavy work off the request thread": a
// number-of-contributors search fits up to a dozen models, each thousands of exact sums (tens of seconds in all).
// First: this worker thread runs below the request thread's priority (background-priority.ts).
import './background-priority';
import type { MessagePort } from 'node:worker_threads';
import type { GammaParametersUsed } from '../../core/schemas/continuous';
import { fitPlannedModels, type PlannedModel } from '../genetics/continuous/contributor-search';
import { continuousCase, type ContinuousRequest } from '../genetics/continuous/continuous-request';

export interface ContributorSearchTask {
  request: ContinuousRequest;
  /** The search's plan (planContributorSearch), in the order fitted; the refused models are not fitted. */
  planned: PlannedModel[];
  /** Where each model's start and figures go as it is fitted (ContributorSearchProgress); closed at the end. */
  port: MessagePort;
}

/** A model of the search fitted: its index in the plan and its figures. */
export interface FittedSearchModel {
  index: number;
  logLikelihoodHp: number | null;
  logLikelihoodHd: number | null;
  aic: number | null;
  bic: number | null;
  log10Lr: number | null;
  parameters: number;
  note: string | null;
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

/** Fits the plan's models in turn (the calculator's own search, fitPlannedModels), saying over the port which one starts and what each gave; returns every outcome. */
export default function contributorSearchWorker({ request, planned, port }: ContributorSearchTask): SearchModelOutcome[] {
  const outcomes: SearchModelOutcome[] = [];
  try {
    let started = performance.now();
    for (const step of fitPlannedModels(continuousCase(request), planned)) {
      if ('fitting' in step) {
        started = performance.now();
        port.postMessage({ fitting: step.fitting } satisfies ContributorSearchProgress);
        continue;
      }
      let outcome: SearchModelOutcome;
      if ('refused' in step) outcome = { index: step.refused, refused: step.reason };
      else {
        const { logLikelihoodHp, logLikelihoodHd, aic, bic, log10Lr, parameters, note, result } = step.searched;
        const [hp, hd] = result.hypotheses;
        outcome = { index: step.fitted, logLikelihoodHp, logLikelihoodHd, aic, bic, log10Lr, parameters, note, fittedHp: hp!.parameters, fittedHd: hd!.parameters, elapsedMs: Math.round(performance.now() - started) };
      }
      port.postMessage({ outcome } satisfies ContributorSearchProgress);
      outcomes.push(outcome);
    }
    return outcomes;
  } finally {
    port.close();
  }
}
