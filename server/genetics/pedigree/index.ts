export * from './mutation-model';
export * from './pedigree';
export * from './pedigree-likelihood';
export * from './pedigree-lr';
export * from './analysis-hypotheses';
