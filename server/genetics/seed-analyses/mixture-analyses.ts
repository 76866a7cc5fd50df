import { MIXTURE_ROLES } from '../../../core/schemas/analyses';
import type { SeedMixtureAnalysis } from './types';

/** The seed group of mixture analyses (issue 17). */
export const MIXTURES_GROUP = 'Mixtures';

/**
 * The seed mixture analyses (GENETICS.md "Mixtures"): LRmix/EuroForMix qualitative defaults — drop-in 0.05, θ 0.01,
 * the person of interest counted under Hd; drop-out estimated (the conservative Monte-Carlo value, SmartRank
 * practice). Two and three contributors; the calculator changes any parameter for a run. A database search records
 * candidates from LR 10,000 (the rule may set its own).
 */
export const SEED_MIXTURE_ANALYSES: readonly SeedMixtureAnalysis[] = [2, 3].map((contributors) => ({
  name: `Mixture, ${contributors} contributors`,
  label: `Semi-continuous LR (drop-out, drop-in, θ) of a ${contributors}-person mixture`,
  kind: 'Mixture',
  profileKind: 'Autosomal',
  roles: [...MIXTURE_ROLES],
  threshold: 10_000,
  mixture: { contributors, dropout: { mode: 'estimated', estimate: 'conservative' }, dropIn: 0.05, theta: 0.01, personOfInterestTypedUnderHd: true, normalizeFrequencies: false },
}));
