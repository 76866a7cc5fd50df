import { compareAlleles, parseAllele } from '../../core/alleles';
import { usesMutation, type EngineAnalysis } from '../genetics/evaluate-analysis';
import { evaluate, ExpressionError, parseExpression, type Expression } from '../genetics/expressions';
import { canonicalPattern, PatternError, type CanonicalPattern, type Ploidy } from '../genetics/patterns';
import { alleleFrequency, duoExclusionPower, trioExclusionPower } from '../genetics/statistics';
import type { Genotype, PopulationFrequencies } from '../genetics/types';
import { pedigreePairLr, type PedigreeWeighing } from './pedigree-evaluator';

/** One marker's outcome for the roles' genotypes: the formula's value (computational) or the exclusion flag; null both when not evaluated. */
export interface MarkerOutcome {
  value: number | null;
  isExclusion: boolean | null;
  /** An evaluated formula that uses μ: the marker is inconsistent with the relationship (GENETICS.md "Parentage with inconsistencies"). */
  inconsistent?: boolean;
}

/** Labelled rank shapes per ploidy: a few dozen entries for two roles. */
const SHAPES: Record<Ploidy, Map<string, CanonicalPattern>> = { diploid: new Map(), haploid: new Map() };

const NOT_EVALUATED: MarkerOutcome = { value: null, isExclusion: null };

/** What evaluate-analysis refuses to put in an allele expression: lab markings, Y-STR multi-copy values, mixtures. */
function usable(genotype: Genotype, profileKind: EngineAnalysis['profileKind']): boolean {
  if (genotype.some((a) => ['marking', 'invalid'].includes(parseAllele(a).kind))) return false;
  return genotype.length <= (profileKind === 'YStr' ? 1 : 2);
}

/** usable() by genotype text, per profile kind (bounded). */
const USABLE: Record<EngineAnalysis['profileKind'], Map<string, boolean>> = { Autosomal: new Map(), YStr: new Map() };

const order = new Map<string, number>();
/** compareAlleles parses both designations; a table compares the same few hundred pairs thousands of times. */
function compareCached(a: string, b: string): number {
  const key = `${a}\u0000${b}`;
  let d = order.get(key);
  if (d === undefined) {
    if (order.size > 100_000) order.clear();
    order.set(key, (d = compareAlleles(a, b)));
  }
  return d;
}

/**
 * canonicalPattern through a memo: the pattern depends only on which alleles are equal and how they
 * order (compareAlleles), so the genotypes are rewritten as ranks 1, 2, … and the few distinct rank
 * shapes are labelled once; the letters then map back to the real alleles. Same result, a table of
 * thousands of pairs in a millisecond instead of tens.
 */
function memoisedPattern(memo: Map<string, CanonicalPattern>, genotypes: readonly Genotype[], ploidy: Ploidy): CanonicalPattern {
  // The same genotype pairs recur across the analyses and queries of a search: their located patterns are kept whole.
  const whole = genotypes.map((g) => g.join('/')).join('|');
  const known = LOCATED[ploidy].get(whole);
  if (known) return known;
  if (LOCATED[ploidy].size > 200_000) LOCATED[ploidy].clear();
  const located = locate(memo, genotypes, ploidy);
  LOCATED[ploidy].set(whole, located);
  return located;
}

/** Located patterns by the genotypes' text, per ploidy (bounded: cleared when large). */
const LOCATED: Record<Ploidy, Map<string, CanonicalPattern>> = { diploid: new Map(), haploid: new Map() };

function locate(memo: Map<string, CanonicalPattern>, genotypes: readonly Genotype[], ploidy: Ploidy): CanonicalPattern {
  // compareAlleles is 0 only for equal text, so the ranks are a faithful stand-in.
  const distinct = [...new Set(genotypes.flat())].sort(compareCached);
  const rank = new Map(distinct.map((a, i) => [a, String(i + 1)]));
  const shape = genotypes.map((g) => g.map((a) => rank.get(a)!));
  const key = shape.map((g) => g.join(',')).join('|');
  let labelled = memo.get(key);
  if (!labelled) {
    labelled = canonicalPattern(shape, { ploidy });
    memo.set(key, labelled);
  }
  return { pattern: labelled.pattern, alleles: new Map([...labelled.alleles].map(([letter, r]) => [letter, distinct[Number(r) - 1]!])) };
}

/**
 * The per-marker step of evaluateComputational / evaluateExclusion (server/genetics/evaluate-analysis.ts,
 * GENETICS.md "Analyses are data") for one analysis, marker and population, with the formulae parsed
 * and the exclusion power A computed once, so a lookup table of thousands of genotype pairs costs
 * milliseconds. Tests hold it equal to evaluate-analysis pair by pair. `fixedRole`: the role whose genotype stays the
 * same across calls (the query's), so a pedigree-weighed analysis builds one table per query genotype.
 */
export function markerEvaluator(
  analysis: EngineAnalysis & { weighing?: PedigreeWeighing | undefined },
  marker: string,
  population: PopulationFrequencies | null,
  fixedRole: 0 | 1 = 0,
): (genotypes: readonly (Genotype | null)[]) => MarkerOutcome {
  // A pairwise analysis with a mutation model: its pedigree's LR replaces the formula table (and μ/A) altogether.
  if (analysis.weighing && analysis.roles.length === 2) {
    const lr = pedigreePairLr(analysis.weighing, analysis.roles, marker, population, fixedRole);
    return (genotypes) => {
      const value = lr(genotypes);
      return value === null ? NOT_EVALUATED : { value, isExclusion: null, inconsistent: false };
    };
  }
  const formulae = new Map(analysis.formulae.map((f) => [f.pattern, f]));
  const parsed = new Map<string, Expression | ExpressionError>();
  const mutation = new Map<Expression, boolean>();
  const frequencies = population?.markers.get(marker);
  const all = frequencies ? [...frequencies.frequencies.values()] : [];
  const constants = { ...analysis.constants, A: analysis.kind === 'Computational' && all.length > 0 ? (analysis.roles.length === 3 ? trioExclusionPower(all) : duoExclusionPower(all)) : 0 };
  const ploidy = analysis.profileKind === 'YStr' ? 'haploid' : 'diploid';
  const patterns = SHAPES[ploidy];
  const usableMemo = USABLE[analysis.profileKind];
  const isUsable = (g: Genotype) => {
    const key = g.join('/');
    let ok = usableMemo.get(key);
    if (ok === undefined) {
      if (usableMemo.size > 100_000) usableMemo.clear();
      usableMemo.set(key, (ok = usable(g, analysis.profileKind)));
    }
    return ok;
  };
  const expressionOf = (text: string) => {
    if (!parsed.has(text)) {
      try {
        parsed.set(text, parseExpression(text));
      } catch (err) {
        if (!(err instanceof ExpressionError)) throw err;
        parsed.set(text, err);
      }
    }
    return parsed.get(text)!;
  };
  return (genotypes) => {
    if (genotypes.some((g) => !g || g.length === 0 || !isUsable(g))) return NOT_EVALUATED;
    let located;
    try {
      located = memoisedPattern(patterns, genotypes as Genotype[], ploidy);
    } catch (err) {
      if (err instanceof PatternError) return NOT_EVALUATED;
      throw err;
    }
    const formula = formulae.get(located.pattern);
    if (!formula) return NOT_EVALUATED;
    if (analysis.kind === 'Exclusion') return { value: null, isExclusion: formula.isExclusion };
    if (!population || !frequencies || frequencies.frequencies.size === 0) return NOT_EVALUATED;
    const expression = expressionOf(formula.expression ?? '');
    if (expression instanceof ExpressionError) return NOT_EVALUATED;
    const letters = Object.fromEntries([...located.alleles].map(([letter, allele]) => [letter.toLowerCase(), alleleFrequency(population, marker, allele)]));
    let inconsistent = mutation.get(expression);
    if (inconsistent === undefined) mutation.set(expression, (inconsistent = usesMutation(expression)));
    try {
      return { value: evaluate(expression, { letters, constants }), isExclusion: null, inconsistent };
    } catch (err) {
      if (err instanceof ExpressionError) return NOT_EVALUATED;
      throw err;
    }
  };
}
