import type { MatchAnalysis, ProfileKind } from './types';

/**
 * Whether an analysis weighs two profiles as coming from one source (Identity, Y-STR haplotype frequency): a
 * computational table of two roles without relationship constants (κ, μ) or a pedigree — the rule the analysis
 * report uses to state an LR as a match probability.
 */
export function isSameSourceAnalysis(analysis: MatchAnalysis): boolean {
  return analysis.kind === 'Computational' && analysis.roles.length === 2 && !analysis.weighing && !Object.keys(analysis.constants).some((name) => /^(kappa|mu)/i.test(name));
}

/**
 * The analyses a keyboard search can run for a kind: active two-role analyses with a threshold (a database search
 * records nothing without one). Mixture analyses weigh a typed mixture in the mixture search; three-role ones need
 * a known pair; pedigree ones search from a missing-person case.
 */
export function keyboardSearchAnalyses<A extends MatchAnalysis>(active: readonly A[], kind: ProfileKind): A[] {
  return active.filter((a) => a.profileKind === kind && a.roles.length === 2 && a.threshold !== null && (a.kind === 'Computational' || a.kind === 'Exclusion'));
}
