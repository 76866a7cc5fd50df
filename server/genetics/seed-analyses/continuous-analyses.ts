import { CONTINUOUS_MIXTURE, MIXTURE_ROLES } from '../../../core/schemas/analyses';
import type { SeedContinuousAnalysis } from './types';

/**
 * The seed continuous mixture analysis (issue 31, GENETICS.md "Continuous model"): the calculator weighs a stain's
 * peak heights with the gamma model of EuroForMix 4.2.4, its parameters fixed or fitted per run. It sits in the
 * Mixtures group beside the semi-continuous analyses.
 */
export const SEED_CONTINUOUS_ANALYSIS: SeedContinuousAnalysis = {
  name: 'Continuous mixture',
  label: 'Continuous LR from peak heights (gamma model: mixture proportions, degradation, stutters, drop-in, θ)',
  kind: CONTINUOUS_MIXTURE,
  profileKind: 'Autosomal',
  roles: [...MIXTURE_ROLES],
  threshold: 10_000,
};
