import type { AnalysisKind, AnalysisPedigree } from '../../../core/schemas/analyses';
import type { MixtureSetting } from '../../../core/schemas/mixtures';
import type { MutationSetting } from '../../../core/schemas/pedigrees';
import type { MarkerKind } from '../../../core/schemas/markers';

/** One formula row of a seeded analysis: an expression (computational) or an exclusion flag. */
export interface SeedFormula {
  pattern: string;
  expression: string | null;
  isExclusion: boolean | null;
}

/** A seeded analysis (GENETICS.md "Seed analyses"): shipped as data, editable by administrators. Mixture analyses have their own seed (SeedMixtureAnalysis). */
export interface SeedAnalysis {
  name: string;
  label: string;
  kind: Exclude<AnalysisKind, 'Mixture' | 'Continuous mixture'>;
  profileKind: MarkerKind;
  roles: string[];
  threshold: number | null;
  constants: { name: string; notation: string; value: number }[];
  formulae: SeedFormula[];
  /** Pedigree analyses, and the pairwise/trio analyses' pedigrees for an optional mutation model. */
  pedigree?: AnalysisPedigree;
  mutation?: MutationSetting;
}

/** The genotypes of an allele expression, one list of letters per role (`PQ-PP` → [P,Q], [P]). */
export function genotypesOf(pattern: string): string[][] {
  return pattern.split('-').map((g) => [...new Set(g)]);
}

/** A seeded mixture analysis (GENETICS.md "Mixtures"): its two roles and parameters, no formula table. */
export interface SeedMixtureAnalysis {
  name: string;
  label: string;
  kind: 'Mixture';
  profileKind: 'Autosomal';
  roles: string[];
  threshold: number | null;
  mixture: MixtureSetting;
}

/** The seeded continuous mixture analysis (issue 31): its two roles; its parameters are set per run in the calculator. */
export interface SeedContinuousAnalysis {
  name: string;
  label: string;
  kind: 'Continuous mixture';
  profileKind: 'Autosomal';
  roles: string[];
  threshold: number | null;
}
