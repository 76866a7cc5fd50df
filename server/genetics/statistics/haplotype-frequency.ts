import { isComparable, normaliseMarkerAlleles, parseAllele } from '../../../core/alleles';
import type { EngineProfile, Genotype } from '../types';
import { betaQuantile } from './incomplete-beta';

/** A Y-STR haplotype of a population table and how many times it was observed. */
export interface HaplotypeEntry {
  values: EngineProfile;
  count: number;
}

/** How many haplotypes of a table match a query, over how many comparable ones. */
export interface HaplotypeCount {
  /** x: observations equal to the query at every compared marker. */
  matches: number;
  /** N: observations typed (without lab markings) at every compared marker. */
  total: number;
  /** The query's markers used: those with comparable values. */
  markers: string[];
  /** Observations left out of N because they lack a compared marker or hold a lab marking there. */
  notComparable: number;
}

/** A marker's values as an unordered set key, or null when absent or holding a lab marking. */
function setKey(values: Genotype | undefined): string | null {
  if (values === undefined || values.length === 0) return null;
  if (values.some((v) => !isComparable(parseAllele(v)))) return null;
  return normaliseMarkerAlleles(values).join('/');
}

/**
 * Counts a Y-STR haplotype in a population table (SWGDAM 2014, counting method): compares the query's
 * comparable markers, multi-copy markers as unordered sets; a table haplotype that cannot be compared
 * at one of them (absent, lab marking) is left out of N rather than guessed.
 */
export function countHaplotype(query: EngineProfile, table: readonly HaplotypeEntry[]): HaplotypeCount {
  const keys = [...query].map(([marker, values]) => [marker, setKey(values)] as const).filter(([, key]) => key !== null);
  let matches = 0;
  let total = 0;
  let notComparable = 0;
  for (const { values, count } of table) {
    const theirs = keys.map(([marker]) => setKey(values.get(marker)));
    if (theirs.some((k) => k === null)) {
      notComparable += count;
      continue;
    }
    total += count;
    if (theirs.every((k, i) => k === keys[i]![1])) matches += count;
  }
  return { matches, total, markers: keys.map(([marker]) => marker), notComparable };
}

/**
 * Upper one-sided Clopper–Pearson bound of a proportion seen x times in N (Clopper & Pearson 1934;
 * SWGDAM 2014): 1 − α^(1/N) when x = 0, else the (1 − α) quantile of Beta(x + 1, N − x); 1 when x = N.
 */
export function clopperPearsonUpper(x: number, n: number, confidence = 0.95): number {
  if (!(Number.isInteger(x) && Number.isInteger(n) && n > 0 && x >= 0 && x <= n)) {
    throw new RangeError(`a count needs whole numbers 0 ≤ x ≤ N, N > 0 (got x=${x}, N=${n})`);
  }
  const alpha = 1 - confidence;
  if (x === n) return 1;
  if (x === 0) return 1 - alpha ** (1 / n);
  return betaQuantile(confidence, x + 1, n - x);
}

/** A Y-STR haplotype frequency as reported, and its LR. */
export interface HaplotypeFrequency {
  matches: number;
  total: number;
  /** The upper 95% Clopper–Pearson bound of x/N. */
  upperBound: number;
  /** The frequency reported: the bound, θ-corrected when θ is given. */
  frequency: number;
  likelihoodRatio: number;
}

/** Options of haplotypeFrequency. */
export interface HaplotypeFrequencyOptions {
  /** Coancestry θ for the subpopulation correction θ + (1 − θ)·p; none when absent. */
  theta?: number;
  confidence?: number;
}

/**
 * Y-STR haplotype frequency by the counting method (SWGDAM 2014): the upper Clopper–Pearson bound of
 * x/N, optionally θ + (1 − θ)·p, and LR = 1/frequency.
 */
export function haplotypeFrequency(count: { matches: number; total: number }, opts: HaplotypeFrequencyOptions = {}): HaplotypeFrequency {
  const upperBound = clopperPearsonUpper(count.matches, count.total, opts.confidence ?? 0.95);
  const theta = opts.theta ?? 0;
  const frequency = theta + (1 - theta) * upperBound;
  return { matches: count.matches, total: count.total, upperBound, frequency, likelihoodRatio: 1 / frequency };
}
