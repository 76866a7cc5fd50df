import type { MarkerResult } from '../../core/schemas/analyses';

/** Example figures for stories and tests only. The seeded families' mutation models (server/genetics/seed-analyses/pedigree-analyses.ts) as their text. */
export const SEED_MODELS = 'female: stepwise, rate 0.001, rate2 0.00001, range 0.1; male: stepwise, rate 0.003, rate2 0.00001, range 0.1';

/** A marker of a pedigree hit as the server recomputes it: LR = L(H1) / L(H2). */
export const pedigreeMarker = (name: string, genotypes: string[][], [h1, h2]: [number, number], verdict: 'consistent' | 'needs a mutation' | 'excluded', mutation = SEED_MODELS): MarkerResult => ({
  marker: name,
  genotypes,
  pattern: null,
  expression: null,
  latex: null,
  value: h1 / h2,
  log10: h1 === 0 ? null : Math.log10(h1 / h2),
  isExclusion: null,
  notEvaluated: null,
  pedigree: { alleles: [], frequencies: [], mutation, likelihoodH1: h1, likelihoodH2: h2, verdict },
});
