import type { MixtureCase } from './mixture-lr';
import type { MixtureHypothesisName } from './monte-carlo-lane';
import { laneOf, layoutOf } from './monte-carlo-lane';
import { keptDropouts } from './monte-carlo-series';

/** Which hypothesis a drop-out estimate is made under. */
export type { MixtureHypothesisName } from './monte-carlo-lane';

/** The Monte-Carlo drop-out estimate and how it was reached. */
export interface MonteCarloDropout {
  /** The 95th percentile of the accepted drop-out values (SmartRank's conservative choice); null when none was accepted. */
  conservative: number | null;
  /** The alleles counted in the evidence, the values accepted out of those tried, the seed. */
  observedAlleles: number;
  accepted: number;
  tried: number;
  seed: number;
}

const DEFAULT_SEED = 20_240_601;

/**
 * The drop-out probability by Monte Carlo (Gill et al. 2007; Haned et al. 2012; SmartRank): a drop-out value d is
 * drawn uniformly, the hypothesis's contributors are drawn (typed ones as typed, unknowns from the frequencies), each
 * allele copy drops out with probability d, a replicate receives a drop-in with probability c; d is kept when the
 * number of alleles seen over the markers and replicates equals the evidence's. Returns the 95th percentile of the
 * kept values (null when none is kept), seeded (mulberry32) so the same case gives the same value.
 */
export function monteCarloDropout(c: MixtureCase, hypothesis: MixtureHypothesisName, seed = DEFAULT_SEED): MonteCarloDropout {
  return monteCarloDropouts([c], hypothesis, seed)[0]!;
}

/**
 * monteCarloDropout of each case (Gill et al. 2007; SmartRank), the same numbers as one at a time, with less work:
 * a try's d and the alleles it shows depend only on the case's layout, drop-in and population, not on its evidence,
 * so each (layout, drop-in, population)'s tries are kept and a case reads them (monte-carlo-series.ts). The stains of a
 * kit with the same markers and replicates, and every rule weighing the same stain, share them.
 */
export function monteCarloDropouts(cases: readonly MixtureCase[], hypothesis: MixtureHypothesisName, seed = DEFAULT_SEED): MonteCarloDropout[] {
  return cases.map((c) => {
    const { markers, observedAlleles } = layoutOf(c, hypothesis);
    const { kept, tried } = keptDropouts(markers, observedAlleles, c.dropIn, laneOf(c, hypothesis, markers), seed);
    const values = kept.sort((a, b) => a - b);
    const conservative = values.length === 0 ? null : values[Math.min(values.length - 1, Math.ceil(0.95 * values.length) - 1)]!;
    return { conservative, observedAlleles, accepted: values.length, tried, seed };
  });
}
