// Runs in a worker thread (server/jobs/worker-pool.ts), ARCHITECTURE.md "Heavy work off the request thread": a
// continuous-model LR sums millions of joint genotypes per evaluation and a fit evaluates thousands of times.
// First: this worker thread runs below the request thread's priority (background-priority.ts).
import './background-priority';
import type { ContinuousLrResult } from '../../core/schemas/continuous';
import { searchContributors } from '../genetics/continuous/contributor-search';
import { continuousLr } from '../genetics/continuous/continuous-lr';
import { continuousCase, type ContinuousRequest } from '../genetics/continuous/continuous-request';
import { ContinuousModelError } from '../genetics/continuous/continuous-types';

/** The answer, or the refusal's message (a thread boundary loses the error's class). */
export type ContinuousOutcome = { ok: ContinuousLrResult } | { refused: string };

/** Weighs one request; a refusal of the model (bad input it names) comes back as such, anything else is thrown. */
export function weighContinuous(request: ContinuousRequest): ContinuousOutcome {
  try {
    const c = continuousCase(request);
    const search = request.contributorSearch;
    // The search first: a refusal on its bound comes before any fit.
    const searched = search
      ? searchContributors(c, [search.from, search.to], search.models).map(({ result, ...s }) => {
          const hd = result.hypotheses[1]!.parameters;
          return { ...s, model: { ...s.model }, fittedHd: hd };
        })
      : null;
    return { ok: { ...continuousLr(c), contributorSearch: searched } };
  } catch (error) {
    if (error instanceof ContinuousModelError) return { refused: error.message };
    throw error;
  }
}

export default weighContinuous;
