import { parseAllele } from '../../core/alleles';
import { evaluate, ExpressionError, namesIn, parseExpression, type Expression } from './expressions';
import { canonicalPattern, PatternError } from './patterns';
import { alleleFrequency, duoExclusionPower, trioExclusionPower } from './statistics';
import type { EngineProfile, Genotype, PopulationFrequencies } from './types';

/** An analysis as the engine evaluates it: its roles, kind and formula table (GENETICS.md "Analyses are data"). */
export interface EngineAnalysis {
  /** Mixture analyses have no formula table: the search weighs them by server/matching/mixture-search.ts. */
  kind: 'Computational' | 'Exclusion' | 'Pedigree' | 'Mixture';
  profileKind: 'Autosomal' | 'YStr';
  roles: readonly string[];
  formulae: readonly { pattern: string; expression: string | null; isExclusion: boolean | null }[];
  constants: Readonly<Record<string, number>>;
}

/** One marker of a result: the roles' genotypes, the pattern, the formula used and its value — or why it was not evaluated. */
export interface MarkerEvaluation {
  marker: string;
  genotypes: (Genotype | null)[];
  pattern: string | null;
  expression: string | null;
  value: number | null;
  isExclusion: boolean | null;
  notEvaluated: string | null;
  /** Pedigree runs (GENETICS.md "Pedigrees"): what the LR in `value` came from. */
  pedigree?: PedigreeMarkerDetail;
}

/** A pedigree marker's parameters and likelihoods: the alleles and founder frequencies used, the models' text. */
export interface PedigreeMarkerDetail {
  alleles: string[];
  frequencies: number[];
  mutation: string;
  likelihoodH1: number;
  likelihoodH2: number;
  verdict: 'consistent' | 'needs a mutation' | 'excluded';
}

/** A computational result for one population: per marker, and the combined index over the evaluated markers. */
export interface ComputationalEvaluation {
  markers: MarkerEvaluation[];
  /** Product of the evaluated markers' values (computed in log10); null when no marker was evaluated; 0 when excluded. */
  combinedIndex: number | null;
  log10: number | null;
  /** Analyses with `maxInconsistencies`: the evaluated markers whose formula uses μ (inconsistent with the relationship); otherwise empty. */
  inconsistentMarkers: string[];
  /** More inconsistent markers than `maxInconsistencies` allows: the conclusion is Excluded, the combined index 0. */
  excluded: boolean;
}

/** The constant that bounds the markers inconsistent with a relationship (GENETICS.md "Parentage with inconsistencies"). */
export const MAX_INCONSISTENCIES = 'maxInconsistencies';
/** The mutation-rate constant: the formula table writes μ/A exactly at the Mendelian-inconsistent patterns. */
export const MUTATION_CONSTANT = 'mu';

/** Whether a formula reads its marker as inconsistent with the relationship: it uses μ (AABB μ/A at an inconsistency). */
export const usesMutation = (expression: Expression): boolean => namesIn(expression).constants.has(MUTATION_CONSTANT);

/** An exclusion result: per marker, and how many compared markers are non-exclusions. */
export interface ExclusionEvaluation {
  markers: MarkerEvaluation[];
  markerCount: number;
  nonExclusionMarkerCount: number;
}

/** Why a genotype cannot enter an allele expression (or a pedigree), or null when it can. */
export function unusable(genotype: Genotype, profileKind: EngineAnalysis['profileKind']): string | null {
  const marking = genotype.find((a) => parseAllele(a).kind === 'marking' || parseAllele(a).kind === 'invalid');
  if (marking) return `lab marking ${marking} is not comparable`;
  if (profileKind === 'Autosomal' && genotype.length > 2) return `${genotype.length} alleles (a mixture) are not evaluated`;
  return null;
}

/** Numeric allele order (10 < 9.3 < 11 read as numbers), text after. */
const byAllele = (a: string, b: string) => parseFloat(a) - parseFloat(b) || a.localeCompare(b);

/**
 * A Y-STR genotype as one haplotype allele: a multi-copy marker (DYS385a/b, DYF387S1…) is the
 * unordered set of its copies (SWGDAM 2014: compared as a whole), so {11,14} and {14,11} agree.
 */
export const haplotypeAllele = (genotype: Genotype): string => [...new Set(genotype)].sort(byAllele).join(',');

/** The markers of `order` any role holds, then the others in the first profile's order. */
export function markersOf(profiles: readonly EngineProfile[], order: readonly string[]): string[] {
  const held = new Set(profiles.flatMap((p) => [...p.keys()]));
  return [...order.filter((m) => held.has(m)), ...[...held].filter((m) => !order.includes(m))];
}

/** Pattern and formula of one marker for the roles' genotypes, or why there is none (GENETICS.md: never silently skipped). */
function locate(analysis: EngineAnalysis, marker: string, profiles: readonly EngineProfile[]) {
  const genotypes = profiles.map((p) => p.get(marker) ?? null);
  const base = { marker, genotypes, pattern: null, expression: null, value: null, isExclusion: null };
  const missing = genotypes.findIndex((g) => g === null || g.length === 0);
  if (missing >= 0) return { ...base, notEvaluated: `not typed in ${analysis.roles[missing] ?? `role ${missing + 1}`}` };
  for (const g of genotypes) {
    const why = unusable(g!, analysis.profileKind);
    if (why) return { ...base, notEvaluated: why };
  }
  const haploid = analysis.profileKind === 'YStr';
  // Y-STR: each role holds one haplotype allele per marker, a multi-copy marker's set counting as one.
  const compared = haploid ? genotypes.map((g) => [haplotypeAllele(g!)]) : (genotypes as Genotype[]);
  let located;
  try {
    located = canonicalPattern(compared, { ploidy: haploid ? 'haploid' : 'diploid' });
  } catch (err) {
    if (err instanceof PatternError) return { ...base, notEvaluated: err.message };
    throw err;
  }
  const formula = analysis.formulae.find((f) => f.pattern === located.pattern);
  if (!formula) return { ...base, pattern: located.pattern, notEvaluated: `no formula for ${located.pattern}` };
  return { ...base, pattern: located.pattern, formula, alleles: located.alleles, notEvaluated: null };
}

/**
 * A computational analysis over one population (GENETICS.md "Analyses are data"): per marker the
 * canonical pattern's formula, evaluated with the alleles' frequencies (NRC II 4.10 minimum rule),
 * the analysis's constants and A (AABB exclusion power); the combined index is the product over the
 * evaluated markers (NRC II rec. 4.1), computed in log space. An analysis with the constant
 * `maxInconsistencies` counts the evaluated markers whose formula uses μ (GENETICS.md "Parentage with
 * inconsistencies", AABB): μ/A applies while the count is within it; above it the result is Excluded
 * (combined index 0, log10 −∞) and those markers are named.
 */
export function evaluateComputational(
  analysis: EngineAnalysis,
  profiles: readonly EngineProfile[],
  population: PopulationFrequencies,
  markerOrder: readonly string[],
): ComputationalEvaluation {
  const inconsistentMarkers: string[] = [];
  const maxInconsistencies = analysis.constants[MAX_INCONSISTENCIES];
  const markers: MarkerEvaluation[] = markersOf(profiles, markerOrder).map((marker) => {
    const found = locate(analysis, marker, profiles);
    if (found.notEvaluated !== null || !('formula' in found)) return found as MarkerEvaluation;
    const { formula, alleles, ...rest } = found;
    const expression = formula.expression ?? '';
    const frequencies = population.markers.get(marker);
    if (!frequencies || frequencies.frequencies.size === 0) return { ...rest, expression, notEvaluated: `no allele frequencies for ${marker} in ${population.name}` };
    const letters = Object.fromEntries([...alleles].map(([letter, allele]) => [letter.toLowerCase(), alleleFrequency(population, marker, allele)]));
    const all = [...frequencies.frequencies.values()];
    const power = analysis.roles.length === 3 ? trioExclusionPower(all) : duoExclusionPower(all);
    try {
      const parsed = parseExpression(expression);
      const value = evaluate(parsed, { letters, constants: { ...analysis.constants, A: power } });
      if (maxInconsistencies !== undefined && usesMutation(parsed)) inconsistentMarkers.push(marker);
      return { ...rest, expression, value, notEvaluated: null };
    } catch (err) {
      if (err instanceof ExpressionError) return { ...rest, expression, notEvaluated: `the formula failed: ${err.message}` };
      throw err;
    }
  });
  const values = markers.filter((m) => m.value !== null).map((m) => m.value!);
  const excluded = maxInconsistencies !== undefined && inconsistentMarkers.length > maxInconsistencies;
  if (excluded) return { markers, combinedIndex: 0, log10: -Infinity, inconsistentMarkers, excluded };
  if (values.length === 0) return { markers, combinedIndex: null, log10: null, inconsistentMarkers, excluded };
  const log10 = values.reduce((sum, v) => sum + Math.log10(v), 0);
  return { markers, combinedIndex: 10 ** log10, log10, inconsistentMarkers, excluded };
}

/** An exclusion analysis (GENETICS.md "Exclusion analyses"): per marker Exclusion or Non Exclusion; the hit shows non-exclusions / markers compared. */
export function evaluateExclusion(analysis: EngineAnalysis, profiles: readonly EngineProfile[], markerOrder: readonly string[]): ExclusionEvaluation {
  const markers: MarkerEvaluation[] = markersOf(profiles, markerOrder).map((marker) => {
    const found = locate(analysis, marker, profiles);
    if (found.notEvaluated !== null || !('formula' in found)) return found as MarkerEvaluation;
    const { formula, alleles: _alleles, ...rest } = found;
    return { ...rest, isExclusion: formula.isExclusion, notEvaluated: formula.isExclusion === null ? `no decision for ${rest.pattern}` : null };
  });
  const compared = markers.filter((m) => m.isExclusion !== null);
  return { markers, markerCount: compared.length, nonExclusionMarkerCount: compared.filter((m) => !m.isExclusion).length };
}
