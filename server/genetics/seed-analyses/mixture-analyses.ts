import { MIXTURE_ROLES } from '../../../core/schemas/analyses';
import type { SeedMixtureAnalysis } from './types';

/** The seed group of mixture analyses (issue 17). */
export const MIXTURES_GROUP = 'Mixtures';

/** The seed analysis a forensic mixture's approval search uses. */
export const MIXTURE_SEARCH_ANALYSIS = 'Mixture, 3 contributors';

/**
 * The seed mixture analyses (GENETICS.md "Mixtures"): LRmix/EuroForMix qualitative defaults — drop-in 0.05, θ 0.01,
 * the person of interest counted under Hd; drop-out estimated (the conservative Monte-Carlo value, SmartRank
 * practice). A partial single-source profile, two and three contributors; the calculator changes any parameter for
 * a run. A database search records candidates from LR 10,000 (the rule may set its own).
 */
export const SEED_MIXTURE_ANALYSES: readonly SeedMixtureAnalysis[] = [1, 2, 3].map((contributors) => ({
  name: contributors === 1 ? 'Partial profile (1 contributor)' : `Mixture, ${contributors} contributors`,
  label: contributors === 1 ? 'Semi-continuous LR (drop-out, drop-in, θ) of a partial single-source profile' : `Semi-continuous LR (drop-out, drop-in, θ) of a ${contributors}-person mixture`,
  kind: 'Mixture',
  profileKind: 'Autosomal',
  roles: [...MIXTURE_ROLES],
  threshold: 10_000,
  mixture: { contributors, dropout: { mode: 'estimated', estimate: 'conservative' }, dropIn: 0.05, theta: 0.01, personOfInterestTypedUnderHd: true, normalizeFrequencies: false },
}));
