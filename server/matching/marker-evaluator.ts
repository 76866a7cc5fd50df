import { compareAlleles, parseAllele } from '../../core/alleles';
import { usesMutation, type EngineAnalysis } from '../genetics/evaluate-analysis';
import { ExpressionError, FREQUENCY_LETTERS, parseExpression } from '../genetics/expressions';
import { compileExpression, type CompiledExpression } from '../genetics/expressions/compile-expression';
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

/**
 * What evaluate-analysis refuses to put in an allele expression: lab markings, Y-STR multi-copy values, mixtures. Read
 * per call (parseAllele keeps each designation read once): a memo by genotype missed on every fresh array — the chance
 * distribution's candidate genotypes — and its WeakMap's entries weighed on every collection (issue 29).
 */
function usable(genotype: Genotype, profileKind: EngineAnalysis['profileKind']): boolean {
  if (genotype.length > (profileKind === 'YStr' ? 1 : 2)) return false;
  for (const allele of genotype) {
    const kind = parseAllele(allele).kind;
    if (kind === 'marking' || kind === 'invalid') return false;
  }
  return true;
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
  const distinct = [...new Set(genotypes.flat())].sort(compareAlleles);
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

/** A located pattern with its letters as FREQUENCY_LETTERS indexes (−1 for a letter past u, which no formula names) and their alleles. */
interface Location {
  pattern: string;
  letters: Int32Array;
  alleles: string[];
}

/** Locations by their located pattern (memoisedPattern returns its kept ones again). */
const LOCATIONS = new WeakMap<CanonicalPattern, Location>();

function locationOf(located: CanonicalPattern): Location {
  let location = LOCATIONS.get(located);
  if (!location) {
    const entries = [...located.alleles];
    location = { pattern: located.pattern, letters: Int32Array.from(entries, ([letter]) => (FREQUENCY_LETTERS as readonly string[]).indexOf(letter.toLowerCase())), alleles: entries.map(([, allele]) => allele) };
    LOCATIONS.set(located, location);
  }
  return location;
}

/**
 * Locations of two genotypes by the genotypes themselves (a table's query genotype and a column's decoded genotypes
 * are kept objects), per ploidy, a PatternError as such: a search's populations and analyses locate each pair once.
 */
const PAIRS: Record<Ploidy, WeakMap<Genotype, WeakMap<Genotype, Location | PatternError>>> = { diploid: new WeakMap(), haploid: new WeakMap() };

function pairLocation(memo: Map<string, CanonicalPattern>, first: Genotype, second: Genotype, ploidy: Ploidy): Location | PatternError {
  let bySecond = PAIRS[ploidy].get(first);
  if (!bySecond) PAIRS[ploidy].set(first, (bySecond = new WeakMap()));
  let location = bySecond.get(second);
  if (!location) {
    // Through the text-keyed memo: another index's genotype objects (the keyboard search's candidates) find it there.
    location = locationOrError(() => memoisedPattern(memo, [first, second], ploidy));
    bySecond.set(second, location);
  }
  return location;
}

/** The location of a located pattern, or the PatternError locating it raised. */
function locationOrError(located: () => CanonicalPattern): Location | PatternError {
  try {
    return locationOf(located());
  } catch (err) {
    if (err instanceof PatternError) return err;
    throw err;
  }
}

/** A located shape of a fixed genotype against any stored one: the pattern, its letters, and where each letter's allele sits (0, 1: the stored genotype's; 2 +j: the fixed genotype's j-th distinct allele in order). */
interface Shape {
  pattern: string;
  letters: Int32Array;
  slots: Int8Array;
  /** Its place in SHAPES_BY_KEY's order: an evaluator keeps each shape's formula step by it. */
  id: number;
}

/**
 * A pair's shape (fixedShapes), undefined for a pair it does not cover; `sorted()`, the fixed genotype's distinct alleles
 * in order (a slot 2 + j names the j-th) as of the last pair asked. No object per pair: a chance figure asks thousands.
 */
type FixedShapes = ((genotypes: readonly Genotype[]) => Shape | PatternError | undefined) & { sorted(): readonly string[] };

/**
 * Locations of diploid pairs whose `fixedRole` genotype stays the same object across calls (a table's query), found
 * without locating each pair (issue 29: locating was most of a kinship search's planning): a pair's pattern and which
 * allele each letter names depend only on how each stored allele orders against the fixed alleles (below, equal,
 * above each, compareAlleles), and on how the two stored alleles order when nothing between them tells, so each such
 * shape is located once (memoisedPattern: the same pattern and letters) and every other pair of that shape reads it.
 * Undefined for a pair it does not cover (more than two alleles on a side).
 */
function fixedShapes(memo: Map<string, CanonicalPattern>, fixedRole: 0 | 1): FixedShapes {
  let fixed: Genotype | null = null;
  let sorted: string[] = [];
  // What the fixed genotype adds to a shape's key: its role, length, distinct alleles and whether they are written in order.
  let fixedKey = 0;
  const signs = new Map<string, number>();
  const signOf = (allele: string) => {
    let sign = signs.get(allele);
    if (sign === undefined) {
      sign = 0;
      for (const f of sorted) {
        const d = compareAlleles(allele, f);
        sign = sign * 3 + (d < 0 ? 0 : d === 0 ? 1 : 2);
      }
      signs.set(allele, sign);
    }
    return sign;
  };
  const shapeOf = (genotypes: readonly Genotype[]) => {
    const query = genotypes[fixedRole]!;
    const stored = genotypes[1 - fixedRole]!;
    if (query.length > 2 || stored.length > 2) return undefined;
    if (query !== fixed) {
      fixed = query;
      sorted = [...new Set(query)].sort(compareAlleles);
      signs.clear();
      const unordered = query.length === 2 && compareAlleles(query[0]!, query[1]!) > 0 ? 1 : 0;
      fixedKey = (fixedRole | (query.length << 1) | (sorted.length << 3) | (unordered << 5)) << 12;
    }
    const x = signOf(stored[0]!);
    const y = stored.length === 2 ? signOf(stored[1]!) : 0;
    // Two stored alleles on the same side of every fixed one (neither equal to one): their own order decides.
    const between = stored.length === 2 && x === y && !hasEqual(x, sorted.length) ? 1 + Math.sign(compareAlleles(stored[0]!, stored[1]!)) + 1 : 0;
    // A shape depends on nothing else: kept for every fixed genotype alike (issue 29: a table found most of its ~20 again).
    const key = fixedKey | stored.length | (x << 2) | (y << 6) | (between << 10);
    let shape = SHAPES_BY_KEY.get(key);
    if (!shape) {
      const located = locationOrError(() => memoisedPattern(memo, genotypes, 'diploid'));
      shape = located instanceof PatternError ? located : { pattern: located.pattern, letters: located.letters, slots: Int8Array.from(located.alleles, (a) => (a === stored[0] ? 0 : a === stored[1] ? 1 : 2 + sorted.indexOf(a))), id: SHAPES_BY_KEY.size };
      SHAPES_BY_KEY.set(key, shape);
    }
    return shape;
  };
  return Object.assign(shapeOf, { sorted: () => sorted });
}

/** Diploid shapes by their key (fixedShapes), for every fixed genotype and evaluator: a few hundred at most. */
const SHAPES_BY_KEY = new Map<number, Shape | PatternError>();

/** Whether a sign (base-3 digits, one per fixed allele) says equal to one of them. */
function hasEqual(sign: number, digits: number): boolean {
  for (let i = 0; i < digits; i++, sign = Math.floor(sign / 3)) if (sign % 3 === 1) return true;
  return false;
}

/** What a formula table gives a pattern: not evaluated, an exclusion flag, or a compiled formula. */
type PatternStep = { kind: 'none' } | { kind: 'exclusion'; outcome: MarkerOutcome } | { kind: 'formula'; compiled: CompiledExpression; inconsistent: boolean };

/** Compiled formula steps by expression and constants (bounded): every table of a search compiles its few formulae once. */
const COMPILED = new Map<string, PatternStep>();

function compiledStep(text: string, constants: Readonly<Record<string, number>>, constantsKey: string): PatternStep {
  const key = `${constantsKey}\u0000${text}`;
  let step = COMPILED.get(key);
  if (step === undefined) {
    try {
      const expression = parseExpression(text);
      step = { kind: 'formula', compiled: compileExpression(expression, constants), inconsistent: usesMutation(expression) };
    } catch (err) {
      if (!(err instanceof ExpressionError)) throw err;
      step = { kind: 'none' };
    }
    if (COMPILED.size > 10_000) COMPILED.clear();
    COMPILED.set(key, step);
  }
  return step;
}

/** A marker's exclusion power A (duo or trio) by its frequencies, which a loaded population never changes. */
const POWERS = new WeakMap<ReadonlyMap<string, number>, { duo?: number; trio?: number }>();

function exclusionPower(frequencies: ReadonlyMap<string, number>, trio: boolean): number {
  let known = POWERS.get(frequencies);
  if (!known) POWERS.set(frequencies, (known = {}));
  if (trio) return (known.trio ??= trioExclusionPower([...frequencies.values()]));
  return (known.duo ??= duoExclusionPower([...frequencies.values()]));
}

/**
 * The per-marker step of evaluateComputational / evaluateExclusion (server/genetics/evaluate-analysis.ts,
 * GENETICS.md "Analyses are data") for one analysis, marker and population, with the formulae parsed and compiled
 * (compileExpression: evaluate's values bit for bit) and the exclusion power A computed once, each allele's frequency
 * read once, and a pair's located pattern kept across the populations and analyses of a search, so a lookup table of
 * thousands of genotype pairs costs a fraction of a millisecond. Tests hold it equal to evaluate-analysis pair by pair.
 * `fixedRole`: the role whose genotype stays the same across calls (the query's), so a pedigree-weighed analysis builds
 * one table per query genotype.
 */
export function markerEvaluator(
  analysis: EngineAnalysis & { weighing?: PedigreeWeighing | undefined },
  marker: string,
  population: PopulationFrequencies | null,
  fixedRole: 0 | 1 = 0,
): MarkerEvaluation {
  // Kept by the analysis and population objects (a search task's, gone with it): the searches of one task and the chance
  // figures beside each scan ask for the same evaluators again, each costing maps, a constants key and closures (issue 29).
  // An evaluator holds no state a caller sees: its memos are of the analysis, population and marker it was made for.
  let byPopulation = EVALUATORS.get(analysis);
  if (!byPopulation) EVALUATORS.set(analysis, (byPopulation = new WeakMap()));
  const populationKey = population ?? NO_POPULATION;
  let byMarker = byPopulation.get(populationKey);
  if (!byMarker) byPopulation.set(populationKey, (byMarker = new Map()));
  const key = `${fixedRole}\u0000${marker}`;
  let evaluation = byMarker.get(key);
  if (!evaluation) byMarker.set(key, (evaluation = newMarkerEvaluator(analysis, marker, population, fixedRole)));
  return evaluation;
}

/** One marker's evaluation of the roles' genotypes (markerEvaluator). */
type MarkerEvaluation = (genotypes: readonly (Genotype | null)[]) => MarkerOutcome;

const EVALUATORS = new WeakMap<EngineAnalysis, WeakMap<PopulationFrequencies | typeof NO_POPULATION, Map<string, MarkerEvaluation>>>();
/** The key of evaluators made without a population (exclusion analyses). */
const NO_POPULATION = Object.freeze({});

function newMarkerEvaluator(
  analysis: EngineAnalysis & { weighing?: PedigreeWeighing | undefined },
  marker: string,
  population: PopulationFrequencies | null,
  fixedRole: 0 | 1,
): MarkerEvaluation {
  // A pairwise analysis with a mutation model: its pedigree's LR replaces the formula table (and μ/A) altogether.
  if (analysis.weighing && analysis.roles.length === 2) {
    const lr = pedigreePairLr(analysis.weighing, analysis.roles, marker, population, fixedRole);
    return (genotypes) => {
      const value = lr(genotypes);
      return value === null ? NOT_EVALUATED : { value, isExclusion: null, inconsistent: false };
    };
  }
  const formulae = new Map(analysis.formulae.map((f) => [f.pattern, f]));
  const frequencies = population?.markers.get(marker);
  const constants = { ...analysis.constants, A: analysis.kind === 'Computational' && frequencies && frequencies.frequencies.size > 0 ? exclusionPower(frequencies.frequencies, analysis.roles.length === 3) : 0 };
  const ploidy = analysis.profileKind === 'YStr' ? 'haploid' : 'diploid';
  const patterns = SHAPES[ploidy];
  const { profileKind } = analysis;
  const isUsable = (g: Genotype) => usable(g, profileKind);
  const evaluable = !!population && !!frequencies && frequencies.frequencies.size > 0;
  // Text that tells every two constants apart (−0 from 0 too, which JSON does not).
  const constantsKey = Object.entries(constants).map(([name, v]) => `${name}=${Object.is(v, -0) ? '-0' : v}`).join(';');
  // Each pattern's step once: its formula parsed and compiled (kept across evaluators with the same constants), whether it uses μ.
  const steps = new Map<string, PatternStep>();
  const stepOf = (pattern: string): PatternStep => {
    let known = steps.get(pattern);
    if (known) return known;
    const formula = formulae.get(pattern);
    if (!formula) known = { kind: 'none' };
    else if (analysis.kind === 'Exclusion') known = { kind: 'exclusion', outcome: { value: null, isExclusion: formula.isExclusion } };
    else if (!evaluable) known = { kind: 'none' };
    else known = compiledStep(formula.expression ?? '', constants, constantsKey);
    steps.set(pattern, known);
    return known;
  };
  const frequencyOf = new Map<string, number>();
  const letters = new Float64Array(FREQUENCY_LETTERS.length);
  const shapes = ploidy === 'diploid' ? fixedShapes(patterns, fixedRole) : null;
  const frequency = (allele: string) => {
    let f = frequencyOf.get(allele);
    if (f === undefined) frequencyOf.set(allele, (f = alleleFrequency(population!, marker, allele)));
    return f;
  };
  // The letters' frequencies set (evaluate refuses a letter whose value is not finite, as it refuses a missing one), then the value.
  const outcome = (step: Extract<PatternStep, { kind: 'formula' }>, present: number): MarkerOutcome => {
    const { compiled } = step;
    if ((compiled.letterMask & ~present) !== 0) return NOT_EVALUATED;
    const value = compiled.valueOf(letters);
    return Number.isNaN(value) ? NOT_EVALUATED : { value, isExclusion: null, inconsistent: step.inconsistent };
  };
  const stepByShape: PatternStep[] = [];
  return (genotypes) => {
    for (const g of genotypes) if (!g || g.length === 0 || !isUsable(g)) return NOT_EVALUATED;
    const shape = genotypes.length === 2 ? shapes?.(genotypes as readonly Genotype[]) : undefined;
    if (shape) {
      // The common case (a table's query against each stored genotype): no located copy, the step found by the shape's id.
      if (shape instanceof PatternError) return NOT_EVALUATED;
      const sorted = shapes!.sorted();
      const step = (stepByShape[shape.id] ??= stepOf(shape.pattern));
      if (step.kind === 'none') return NOT_EVALUATED;
      if (step.kind === 'exclusion') return { value: step.outcome.value, isExclusion: step.outcome.isExclusion };
      const stored = genotypes[1 - fixedRole]!;
      const { letters: index, slots } = shape;
      let present = 0;
      for (let i = 0; i < index.length; i++) {
        if (index[i]! < 0) continue;
        const f = frequency(slots[i]! < 2 ? stored[slots[i]!]! : sorted[slots[i]! - 2]!);
        if (!Number.isFinite(f)) continue;
        letters[index[i]!] = f;
        present |= 1 << index[i]!;
      }
      return outcome(step, present);
    }
    const located =
      genotypes.length === 2 ? pairLocation(patterns, genotypes[0]!, genotypes[1]!, ploidy) : locationOrError(() => memoisedPattern(patterns, genotypes as Genotype[], ploidy));
    if (located instanceof PatternError) return NOT_EVALUATED;
    const step = stepOf(located.pattern);
    if (step.kind === 'none') return NOT_EVALUATED;
    if (step.kind === 'exclusion') return { value: step.outcome.value, isExclusion: step.outcome.isExclusion };
    const { letters: index, alleles } = located;
    let present = 0;
    for (let i = 0; i < index.length; i++) {
      if (index[i]! < 0) continue;
      const f = frequency(alleles[i]!);
      if (!Number.isFinite(f)) continue;
      letters[index[i]!] = f;
      present |= 1 << index[i]!;
    }
    return outcome(step, present);
  };
}
