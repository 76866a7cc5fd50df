// GENETICS.md "Expected chance hits": the distribution of log10 LR for an UNRELATED candidate, so a
// database search can report P(LR ≥ t | unrelated), the expected chance hits N × P and each hit's p-value.
import type { PopulationFrequencies } from '../types';
import { alleleFrequency } from './allele-frequency';
import { distributionOnGrid, GRID_SLACK, type GridSum, type LrDistribution } from './distribution-grid';
import { convolveCells, cutAt, gridSum, type MarkerCells } from './grid-convolution';

/** One candidate genotype class at one marker (GENETICS.md "Expected chance hits"): its log10 LR (−Infinity for LR 0) and its probability for an unrelated person. */
export interface LrAtom {
  log10: number;
  probability: number;
  /** The marker is inconsistent with the relationship (its formula uses μ): counted against `maxInconsistencies`. */
  inconsistent?: boolean;
}

/** How lrDistribution builds its grid. */
export interface LrDistributionOptions {
  /** Grid width in log10 units (default 0.01). */
  step?: number;
  /**
   * The analysis's maxInconsistencies (GENETICS.md "Parentage with inconsistencies"): a candidate with more
   * inconsistent markers than this has LR 0 (Excluded), as the database scan decides. Absent: no limit.
   */
  maxInconsistencies?: number;
  /**
   * Only tails at or above this log10 are asked for: sums that can no longer reach it (whatever the markers left
   * add) are dropped during the convolution, which keeps the grid short when single markers reach far below it
   * (a mixture's unrelated candidates). `tail` below it throws; `thresholdFor` answers at least it.
   */
  from?: number;
  /**
   * Whether the mass under `from` is summed (default true): `zeroProbability` alone reads it. False: the convolution
   * never computes the cells it drops (a quarter of a mixture search's, issue 29) and zeroProbability is NaN; the tails,
   * thresholds, range and grid cells from `from` up are the same doubles.
   */
  zeroProbability?: boolean;
}

/**
 * The distribution of Σ log10 LR over independent markers (GENETICS.md "Expected chance hits"; Tippett et al. 1968; Taylor et al. 2016 exceedance probabilities), by direct convolution on a log10 grid rounded down and up.
 *
 * Each marker's atoms are merged per grid cell (rounded down, and separately rounded up) before the
 * convolution, and only the reachable range [Σ min, Σ max] is allocated; LR-0 atoms (−Infinity) are
 * kept apart as `zeroProbability`. Probabilities are used as given (a marker's atoms should sum to 1).
 * With `maxInconsistencies` (GENETICS.md "Parentage with inconsistencies") the convolution also counts
 * the inconsistent atoms, one layer per count up to the limit; a candidate over it has LR 0.
 */
export function lrDistribution(markers: readonly (readonly LrAtom[])[], options: LrDistributionOptions = {}): LrDistribution {
  const step = options.step ?? 0.01;
  if (!(step > 0) || !Number.isFinite(step)) throw new RangeError(`the grid step must be a positive number, not ${step}`);
  const limit = options.maxInconsistencies;
  if (limit !== undefined && !(limit >= 0)) throw new RangeError(`maxInconsistencies must be ≥ 0, not ${limit}`);
  // Layers of the inconsistency count: one without a limit (the flag is then ignored), else limit + 1 (never more than the markers need).
  const most = limit === undefined ? 0 : Math.min(Math.floor(limit), markers.length);
  const counted = limit !== undefined;
  const down: MarkerCells[] = [];
  const up: MarkerCells[] = [];
  // Whether every finite atom lies strictly between two grid points and none is counted inconsistent: each marker's up
  // cells are then its down cells one higher, and mass dropped under `from` is exactly mass that stays finite.
  let offGrid = true;
  for (const [m, atoms] of markers.entries()) {
    if (atoms.length === 0) throw new RangeError(`marker ${m + 1} has no genotype atoms`);
    const lo: MarkerCells = { consistent: new Map(), inconsistent: new Map() };
    const hi: MarkerCells = { consistent: new Map(), inconsistent: new Map() };
    for (const { log10, probability, inconsistent } of atoms) {
      if (!(probability >= 0) || !Number.isFinite(probability)) throw new RangeError(`marker ${m + 1}: probability ${probability} is not a finite number ≥ 0`);
      if (log10 === -Infinity) continue;
      if (!Number.isFinite(log10)) throw new RangeError(`marker ${m + 1}: log10 LR ${log10} is neither finite nor −Infinity`);
      const cells = log10 / step;
      const kind = counted && inconsistent ? 'inconsistent' : 'consistent';
      const kDown = Math.floor(cells + GRID_SLACK);
      const kUp = Math.ceil(cells - GRID_SLACK);
      if (kUp !== kDown + 1 || kind === 'inconsistent') offGrid = false;
      lo[kind].set(kDown, (lo[kind].get(kDown) ?? 0) + probability);
      hi[kind].set(kUp, (hi[kind].get(kUp) ?? 0) + probability);
    }
    // A marker whose every atom is LR 0: no finite sum at all.
    if (lo.consistent.size + lo.inconsistent.size === 0) {
      offGrid = false;
      lo.consistent.set(0, 0);
      hi.consistent.set(0, 0);
    }
    down.push(lo);
    up.push(hi);
  }
  const from = options.from ?? -Infinity;
  if (Number.isNaN(from)) throw new RangeError('`from` cannot be NaN');
  const fromCell = from === -Infinity ? -Infinity : Math.ceil(from / step - GRID_SLACK);
  const dropCounted = options.zeroProbability ?? true;
  let lower: GridSum;
  let upper: GridSum;
  if (offGrid) {
    // Rounded up, the sum is the sum rounded down plus one cell per marker, and its pruning is the same shifted: one
    // convolution pruned M cells lower serves both (the cells it keeps from fromCell up are the same doubles).
    // The lower sum's suffix sums are the upper's from its cut on: the same cells added from the same top in the same order.
    const cells = convolveCells(down, most, fromCell - markers.length, dropCounted);
    upper = gridSum({ ...cells, offset: cells.offset + markers.length });
    const cut = cutAt(cells, fromCell);
    lower = { offset: cut.offset, suffix: upper.suffix.subarray(cut.offset - cells.offset), dropped: cut.dropped };
  } else {
    lower = gridSum(convolveCells(down, most, fromCell, dropCounted));
    upper = gridSum(convolveCells(up, most, fromCell, dropCounted));
  }
  const total = markers.reduce((product, atoms) => product * atoms.reduce((s, a) => s + a.probability, 0), 1);
  return distributionOnGrid({ step, from, total, lower, upper });
}

/** P(at most k successes) among independent Bernoulli(p_i) trials, exact (the Poisson-binomial DP; GENETICS.md "Expected chance hits", stringency searches). */
export function poissonBinomialAtMost(probabilities: readonly number[], k: number): number {
  if (Number.isNaN(k)) throw new RangeError('k cannot be NaN');
  for (const p of probabilities) if (!(p >= 0 && p <= 1)) throw new RangeError(`a probability must lie in [0, 1], not ${p}`);
  if (k < 0) return 0;
  const most = Math.floor(k);
  if (most >= probabilities.length) return 1;
  // dp[j] = P(exactly j successes so far), j ≤ most; mass above `most` is dropped.
  const dp = new Float64Array(most + 1);
  dp[0] = 1;
  for (const [i, p] of probabilities.entries()) {
    for (let j = Math.min(most, i + 1); j >= 1; j--) dp[j] = dp[j]! * (1 - p) + dp[j - 1]! * p;
    dp[0] = dp[0]! * (1 - p);
  }
  let sum = 0;
  for (let j = most; j >= 0; j--) sum += dp[j]!;
  return Math.min(1, sum);
}

/** The pseudo-allele holding a marker's missing frequency mass: its text cannot be an allele designation. */
export const OTHER_ALLELE = '\u0000other';

/** A marker's frequency table summing to less than this (1 − 1e-9) gets the pseudo-allele OTHER_ALLELE; above, the gap is rounding. */
const OTHER_MIN_MASS = 1e-9;

/** How to complete one marker's frequency table into a genotype distribution. */
export interface UnrelatedGenotypeOptions {
  /** Alleles that must be represented though absent from the table (the query's): each gets the minimum allele frequency. */
  extraAlleles?: readonly string[];
  /** Individuals typed at the marker (minimum 5/(2N)); null or absent: `minimumAlleleFrequency`. */
  sampleSize?: number | null;
  /** The population's configured minimum when N is unknown (default 0.001). */
  minimumAlleleFrequency?: number;
}

/** One Hardy–Weinberg genotype: one allele for a homozygote, two (table order) for a heterozygote. */
export interface WeightedGenotype {
  genotype: string[];
  probability: number;
}

/**
 * The Hardy–Weinberg genotypes (p², 2pq) of one marker for an unrelated person (GENETICS.md "Expected chance hits"; "Population statistics" for the minimum allele frequency).
 *
 * The table's alleles keep their observed frequencies; each extra allele absent from the table gets
 * the minimum allele frequency by the engine's rule (alleleFrequency, NRC II 1996: 5/(2N), else the
 * configured minimum). A table summing to less than 1 gets one pseudo-allele OTHER_ALLELE with the
 * remaining mass (it stands for the unlisted alleles, none of which the query carries). All the
 * frequencies are then normalised to total 1, so extra alleles take their mass proportionally from
 * the others. Heterozygote alleles are in table order (table, extras, OTHER_ALLELE).
 */
export function hardyWeinbergGenotypes(frequencies: ReadonlyMap<string, number>, options: UnrelatedGenotypeOptions = {}): WeightedGenotype[] {
  const entries = hardyWeinbergAlleles(frequencies, options);
  const genotypes: WeightedGenotype[] = [];
  for (let i = 0; i < entries.length; i++) {
    const [a, p] = entries[i]!;
    genotypes.push({ genotype: [a], probability: p * p });
    for (let j = i + 1; j < entries.length; j++) {
      const [b, q] = entries[j]!;
      genotypes.push({ genotype: [a, b], probability: 2 * p * q });
    }
  }
  return genotypes;
}

/** The alleles of hardyWeinbergGenotypes with their normalised frequencies, in its order (table, extras, OTHER_ALLELE) (GENETICS.md "Expected chance hits"; NRC II 1996 minimum allele frequency). */
export function hardyWeinbergAlleles(frequencies: ReadonlyMap<string, number>, options: UnrelatedGenotypeOptions): (readonly [string, number])[] {
  const alleles = new Map<string, number>();
  for (const [allele, f] of frequencies) {
    if (!(f >= 0) || !Number.isFinite(f)) throw new RangeError(`allele ${allele}: frequency ${f} is not a finite number ≥ 0`);
    if (f > 0) alleles.set(allele, f);
  }
  const listed = [...alleles.values()].reduce((s, f) => s + f, 0);
  const marker = 'marker';
  const population: PopulationFrequencies = {
    name: 'unrelated',
    minimumAlleleFrequency: options.minimumAlleleFrequency ?? 0.001,
    markers: new Map([[marker, { frequencies, sampleSize: options.sampleSize ?? null }]]),
  };
  for (const allele of options.extraAlleles ?? []) if (!alleles.has(allele)) alleles.set(allele, alleleFrequency(population, marker, allele));
  if (1 - listed > OTHER_MIN_MASS) alleles.set(OTHER_ALLELE, 1 - listed);
  // At least 1 − 1e-9: the pseudo-allele fills any larger gap (an empty table is all "other").
  const total = [...alleles.values()].reduce((s, f) => s + f, 0);
  return [...alleles].map(([allele, f]) => [allele, f / total] as const);
}

/** A per-marker LR with the marker evaluator's inconsistency flag (server/matching MarkerOutcome has this shape). */
export interface MarkerLr {
  value: number | null;
  inconsistent?: boolean;
}

/**
 * A marker's LR by the positions of a genotype's two alleles (i = j: the homozygote); `classes`, when given, the class
 * of each position (of[i] < count), two genotypes of the same classes having the same LR.
 */
export type PairLr = ((i: number, j: number) => number | null | MarkerLr) & { classes?: { count: number; of: Int32Array } };

/**
 * One marker's LR atoms for an unrelated candidate (GENETICS.md "Expected chance hits"): the Hardy–Weinberg genotypes of hardyWeinbergGenotypes, each with its LR, merged by equal value.
 *
 * `lrOf` gives the per-marker LR of a candidate genotype (0 → log10 −Infinity; null = not evaluated,
 * factor 1, log10 0), or that value with its inconsistency flag (an evaluated formula using μ).
 * Genotypes with the pseudo-allele OTHER_ALLELE ('\u0000other') are passed as they are: `lrOf`
 * must give them the LR of an allele the query does not carry. `lrOfPair`, given the alleles in their order, may
 * answer instead by their positions (i = j: the homozygote), as lrOf would for that genotype (undefined: lrOf
 * answers; without lrOf it must answer): a caller whose LR depends on a class of each allele looks the classes up once,
 * not once per genotype, and with `classes` each class pair's atom is found once.
 */
export function unrelatedGenotypeAtoms(
  frequencies: ReadonlyMap<string, number>,
  options: UnrelatedGenotypeOptions &
    ({ lrOf: (genotype: string[]) => number | null | MarkerLr; lrOfPair?: (alleles: readonly string[]) => PairLr | undefined } | { lrOf?: undefined; lrOfPair: (alleles: readonly string[]) => PairLr }),
): LrAtom[] {
  // Merged by value (a number key: no string per genotype, issue 29), the atoms in the order their values first appear.
  // The helpers are functions of the module, not closures per marker: under tsx (esbuild keepNames) each named closure
  // costs a defineProperty when made.
  const merged: MergedAtoms = { atoms: [], consistent: new Map(), inconsistent: new Map() };
  // hardyWeinbergGenotypes' genotypes in its order, with its probabilities (p², 2pq), without an object per genotype.
  const entries = hardyWeinbergAlleles(frequencies, options);
  const pair = options.lrOfPair?.(entries.map(([allele]) => allele));
  const { lrOf } = options;
  if (!pair && !lrOf) throw new TypeError('lrOfPair gave no pair LR and no lrOf was given');
  const classes = pair?.classes;
  if (pair && classes) {
    // Genotypes of one class pair have one LR, so one atom: its log10 and merge made once, the rest added to it in
    // genotype order (the same additions as addAtom's, without a logarithm and a lookup per genotype).
    const { count, of } = classes;
    const atomOf: (LrAtom | undefined)[] = new Array(count * count);
    for (let i = 0; i < entries.length; i++) {
      const [a, p] = entries[i]!;
      for (let j = i; j < entries.length; j++) {
        const [b, q] = entries[j]!;
        const probability = i === j ? p * p : 2 * p * q;
        const x = of[i]!;
        const y = of[j]!;
        const key = x <= y ? x * count + y : y * count + x;
        const atom = atomOf[key];
        if (atom) atom.probability += probability;
        else atomOf[key] = addAtom(merged, a, i === j ? null : b, pair(i, j), probability);
      }
    }
    return merged.atoms;
  }
  for (let i = 0; i < entries.length; i++) {
    const [a, p] = entries[i]!;
    addAtom(merged, a, null, pair ? pair(i, i) : lrOf!([a]), p * p);
    for (let j = i + 1; j < entries.length; j++) {
      const [b, q] = entries[j]!;
      addAtom(merged, a, b, pair ? pair(i, j) : lrOf!([a, b]), 2 * p * q);
    }
  }
  return merged.atoms;
}

/** A marker's atoms so far, each merged with those of the same log10 (consistent and inconsistent apart). */
interface MergedAtoms {
  atoms: LrAtom[];
  consistent: Map<number, LrAtom>;
  inconsistent: Map<number, LrAtom>;
}

/** Adds a genotype's answer (alleles a, b; b null for a homozygote) with its probability to the atom of its value; that atom. */
function addAtom(merged: MergedAtoms, a: string, b: string | null, answer: number | null | MarkerLr, probability: number): LrAtom {
  const lr = answer !== null && typeof answer === 'object' ? answer.value : answer;
  const inconsistent = lr !== null && typeof answer === 'object' && answer?.inconsistent === true;
  const log10 = lr === null ? 0 : Math.log10(lr);
  if (Number.isNaN(log10)) throw new RangeError(`genotype ${b === null ? a : `${a}/${b}`}: LR ${lr} is not a number ≥ 0`);
  const byValue = inconsistent ? merged.inconsistent : merged.consistent;
  const atom = byValue.get(log10);
  if (atom) {
    atom.probability += probability;
    return atom;
  }
  const made = inconsistent ? { log10, probability, inconsistent } : { log10, probability };
  byValue.set(log10, made);
  merged.atoms.push(made);
  return made;
}
