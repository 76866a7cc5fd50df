/**
 * A number-of-contributors search job for stories and tests (issue 31), in the shape GET
 * continuous-lr/contributor-search/{id} answers: 1..4 contributors without and with degradation, one model refused
 * (too many joint genotypes), the best by AIC marked. Figures are illustrative, not weighed.
 */
import type { ContributorSearchJob, ContributorSearchJobModel } from '../../core/schemas/continuous';

export const SEARCH_JOB_ID = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';

const OFF = { degradation: false, backwardStutter: false, forwardStutter: false };
const DEG = { degradation: true, backwardStutter: false, forwardStutter: false };
const params = (mx: number[]) => ({ mx, mu: 1210.4, sigma: 0.142, beta: 0.87, xiB: 0, xiF: 0 });

const fitted = (contributors: number, model: typeof OFF, lnHd: number, aic: number, bic: number, best = false): ContributorSearchJobModel => ({
  contributors,
  model,
  parameters: contributors + 1 + (model.degradation ? 1 : 0),
  logLikelihoodHp: lnHd + 9.2,
  logLikelihoodHd: lnHd,
  aic,
  bic,
  log10Lr: 9.2 / Math.LN10,
  best,
  note: null,
  fittedHd: params(Array.from({ length: contributors }, () => 1 / contributors)),
  fittedHp: params(Array.from({ length: contributors }, () => 1 / contributors)),
  state: 'fitted',
  reason: null,
  jointGenotypes: 120 * contributors,
  elapsedMs: 900 * contributors,
});
const waiting = (contributors: number, model: typeof OFF): ContributorSearchJobModel => ({
  ...fitted(contributors, model, 0, 0, 0),
  logLikelihoodHp: null,
  logLikelihoodHd: null,
  aic: null,
  bic: null,
  log10Lr: null,
  fittedHd: null,
  fittedHp: null,
  state: 'waiting',
  elapsedMs: null,
});

const REFUSED: ContributorSearchJobModel = {
  ...waiting(4, DEG),
  state: 'refused',
  reason: 'Too large to fit: 1,512,400 joint genotypes per evaluation (at most 100,000)',
  jointGenotypes: 1_512_400,
};

const MODELS: ContributorSearchJobModel[] = [
  fitted(1, OFF, -402.118, 808.236, 811.9),
  fitted(1, DEG, -398.5, 803.0, 808.5),
  fitted(2, OFF, -331.42, 670.84, 678.2),
  fitted(2, DEG, -322.07, 654.14, 663.3, true),
  fitted(3, OFF, -321.9, 655.8, 667.0),
  fitted(3, DEG, -321.8, 657.6, 670.4),
  fitted(4, OFF, -321.7, 659.4, 674.1),
  REFUSED,
];

/** A search done: every model fitted but the refused one, 2 contributors with degradation the best. */
export const DONE_JOB: ContributorSearchJob = {
  id: SEARCH_JOB_ID,
  state: 'done',
  startedAt: '2026-11-28T20:00:00.000Z',
  finishedAt: '2026-11-28T20:00:21.000Z',
  elapsedMs: 21_000,
  modelsTotal: 7,
  modelsDone: 7,
  models: MODELS,
  message: null,
};

/** The same search under way: three models fitted, the fourth being fitted. */
export const RUNNING_JOB: ContributorSearchJob = {
  ...DONE_JOB,
  state: 'running',
  finishedAt: null,
  elapsedMs: null,
  modelsDone: 3,
  models: MODELS.map((m, i) => (i < 3 ? { ...m, best: false } : i === 3 ? { ...waiting(m.contributors, m.model), state: 'fitting' } : m.state === 'refused' ? m : waiting(m.contributors, m.model))),
};

/** Cancelled after three models: those stay listed, the rest cancelled. */
export const CANCELLED_JOB: ContributorSearchJob = {
  ...RUNNING_JOB,
  state: 'cancelled',
  finishedAt: '2026-11-28T20:00:08.000Z',
  elapsedMs: 8_000,
  models: RUNNING_JOB.models.map((m) => (m.state === 'fitting' || m.state === 'waiting' ? { ...m, state: 'cancelled' } : m)),
};

/** The worker failed: its message. */
export const FAILED_JOB: ContributorSearchJob = { ...CANCELLED_JOB, state: 'failed', message: 'The fit stopped: the worker ran out of memory.' };
