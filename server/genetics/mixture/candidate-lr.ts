import type { PairLr } from '../statistics/chance-hits';
import type { Genotype, PopulationFrequencies } from '../types';
import { likelihoodWithContributor, likelihoodWithNonContributor } from './candidate-likelihoods';
import { mixtureMarkerLikelihood, type ClassCopies, type MixtureHypothesisAtMarker, type MixtureModelParameters } from './mixture-likelihood';
import { prepareMixtureMarker, type FrequencyRule, type PreparedMixtureMarker } from './mixture-marker';

/** One marker of a mixture search: the evidence there, the known contributors, the parameters fixed for the search. */
export interface MixtureSearchMarker {
  population: PopulationFrequencies;
  marker: string;
  /** The alleles each replicate shows here. */
  replicates: readonly Genotype[];
  /** Known contributors' genotypes here (undefined: not typed here, counted as an unknown). */
  knownContributors: readonly (Genotype | undefined)[];
  /** One drop-out per contributor under Hp: candidate (person of interest), known contributors, unknowns. */
  dropout: readonly number[];
  /** Under Hd: the unknown in the candidate's place, known contributors, unknowns (hypothesisDropouts). */
  dropoutHd: readonly number[];
  parameters: MixtureModelParameters;
  personOfInterestTypedUnderHd: boolean;
  frequencyRule: FrequencyRule;
}

/** A marker's candidate LR as a function of the genotype, with its table over the class pairs made whole on demand. */
export interface CandidateLr {
  (genotype: Genotype): number | undefined;
  /** Every class pair's LR (index c0·K + c1, c0 ≤ c1; the others NaN): another thread's table starts from it (issue 29). */
  everyClass(): Float64Array;
  /**
   * The LR of the genotype of `alleles[i]` and `alleles[j]` (i = j: the homozygote), as the function gives it, each
   * allele's class looked up once and given with it (`classes`); undefined under normalized frequencies (an unlisted
   * allele has its own classes there).
   */
  byPair(alleles: readonly string[]): PairLr | undefined;
  /**
   * The LR by allele class (a search's plan asks each allele's class once and each class pair's LR once, not the LR of
   * every genotype of a column); absent under normalized frequencies (an unlisted allele has its own classes there).
   */
  classes?: { count: number; classOf(allele: string): number; lrOf(x: number, y: number): number };
}

/**
 * The LR of every candidate genotype at one marker with the parameters fixed (GENETICS.md "How the search reaches
 * memory speed": per marker the LR depends only on the candidate's genotype), each exactly mixtureLr's for that
 * candidate as the person of interest. A candidate allele never seen falls in the merged class, so the table has one
 * entry per class genotype however many alleles the population knows; undefined for a genotype of more than two alleles.
 * `weighed`: the class pairs' LRs another thread made for the same marker and parameters (everyClass), read as they are.
 */
export function mixtureCandidateLr(m: MixtureSearchMarker, weighed?: Float64Array): CandidateLr {
  const known = m.knownContributors.filter((g): g is Genotype => g !== undefined && g.length > 0);
  const prepared = prepareMixtureMarker(m.population, m.marker, m.replicates, known, m.frequencyRule, true);
  // By class pair: index c0·K + c1 (c0 ≤ c1), a one-allele genotype as its two copies (c·K + c); NaN until computed.
  const classes = prepared.alleles.length;
  const table = weighed?.length === classes * classes ? weighed : new Float64Array(classes * classes).fill(NaN);
  // The functions below are methods and inline arrows, not named arrows: under tsx (esbuild keepNames) each named
  // closure costs a defineProperty when made, and a search makes these for every marker.
  // The hypotheses' enumerations are made only when a class pair is first weighed here (none when all were sent).
  let weigh: ((key: number, copies: ClassCopies) => number) | undefined;
  const pairs = {
    weighAt(key: number, copies: ClassCopies): number {
      return (table[key] = (weigh ??= classPairWeigher(m, prepared, table))(key, copies));
    },
    // The copies prepared.copies gives a genotype of classes a ≤ b: one of each, two for a homozygote.
    at(a: number, b: number): number {
      const key = a * classes + b;
      const value = table[key]!;
      if (!Number.isNaN(value)) return value;
      const copies = new Int32Array(classes);
      copies[a]!++;
      copies[b]!++;
      return pairs.weighAt(key, copies);
    },
  };
  // With normalized frequencies an allele the table lacks changes every frequency: such a candidate gets its own classes.
  const listed = m.population.markers.get(m.marker)?.frequencies;
  const byClass = m.frequencyRule.normalize
    ? {}
    : {
        classes: {
          count: classes,
          classOf: prepared.classOf,
          lrOf(x: number, y: number) {
            return pairs.at(x, y);
          },
        },
      };
  return Object.assign(
    (genotype: Genotype) => {
      if (genotype.length < 1 || genotype.length > 2) return undefined;
      if (m.frequencyRule.normalize && genotype.some((a) => prepared.classOf(a) === prepared.alleles.length - 1 && !listed?.has(a))) return exactFor(m, genotype);
      const a = prepared.classOf(genotype[0]!);
      const b = genotype.length === 1 ? -1 : prepared.classOf(genotype[1]!);
      const key = b === -1 ? a * classes + a : a <= b ? a * classes + b : b * classes + a;
      const value = table[key]!;
      return Number.isNaN(value) ? pairs.weighAt(key, prepared.copies(genotype)) : value;
    },
    byClass,
    {
      everyClass() {
        for (let a = 0; a < classes; a++) for (let b = a; b < classes; b++) pairs.at(a, b);
        return table;
      },
      byPair(alleles: readonly string[]) {
        if (m.frequencyRule.normalize) return undefined;
        const classOf = Int32Array.from(alleles, (a) => prepared.classOf(a));
        return Object.assign(
          (i: number, j: number) => {
            const a = classOf[i]!;
            const b = classOf[j]!;
            return a <= b ? pairs.at(a, b) : pairs.at(b, a);
          },
          { classes: { count: classes, of: classOf } },
        );
      },
    },
  );
}

/**
 * How a marker's class pairs are weighed (mixtureCandidateLr): the hypotheses' enumerations made once, then by key
 * from `table` when every pair was weighed at once (filled here), else pair by pair from the candidate's copies.
 */
function classPairWeigher(m: MixtureSearchMarker, prepared: PreparedMixtureMarker, table: Float64Array): (key: number, copies: ClassCopies) => number {
  const classes = prepared.alleles.length;
  const { candidateDropout, typedKnown, unknowns, hdHypothesis } = searchHypotheses(m, prepared);
  const hdDependsOnCandidate = m.personOfInterestTypedUnderHd && m.parameters.theta > 0;
  // Under θ the candidate's alleles enter Hd's sampling counts only: the unknowns are enumerated once for all candidates.
  const hdOf = hdDependsOnCandidate ? likelihoodWithNonContributor(prepared, hdHypothesis, m.parameters) : null;
  const hdWithout = hdOf ? 0 : mixtureMarkerLikelihood(prepared, hdHypothesis, m.parameters);
  // Every candidate shares the unknowns' enumeration under Hp too: only its own classes are weighed per genotype.
  const hpOf = likelihoodWithContributor(prepared, { contributors: typedKnown, nonContributors: [], unknowns }, candidateDropout, m.parameters);
  // Every class pair at once, each the number hpOf and hdOf give it (contributor-pairs.ts, pair-sums.ts): a search
  // weighs them all. Their LRs go to the table now: the arrays are the search's scratch memory, read no later.
  const hpEvery = hpOf.everyPair();
  const hdEvery = hdOf?.everyPair() ?? null;
  if (hpEvery && (hdEvery || !hdOf)) {
    for (let a = 0; a < classes; a++) {
      for (let b = a; b < classes; b++) {
        const hd = hdEvery ? hdEvery[a * classes + b]! : hdWithout;
        table[a * classes + b] = hd > 0 ? hpEvery[a * classes + b]! / hd : 0;
      }
    }
    return (key: number) => table[key]!;
  }
  return (_: number, copies: ClassCopies) => {
    const hp = hpOf(copies);
    const hd = hdOf ? hdOf(copies) : hdWithout;
    return hd > 0 ? hp / hd : 0;
  };
}

/** One candidate's LR at the marker computed on its own (its alleles prepared with the evidence's). */
function exactFor(m: MixtureSearchMarker, genotype: Genotype): number {
  const known = m.knownContributors.filter((g): g is Genotype => g !== undefined && g.length > 0);
  const prepared = prepareMixtureMarker(m.population, m.marker, m.replicates, [genotype, ...known], m.frequencyRule, true);
  const { candidateDropout, typedKnown, unknowns, hdHypothesis } = searchHypotheses(m, prepared);
  const copies = prepared.copies(genotype);
  const hp = mixtureMarkerLikelihood(prepared, { contributors: [{ copies, dropout: candidateDropout }, ...typedKnown], nonContributors: [], unknowns }, m.parameters);
  const hd = mixtureMarkerLikelihood(prepared, { ...hdHypothesis, nonContributors: m.personOfInterestTypedUnderHd ? [copies] : [] }, m.parameters);
  return hd > 0 ? hp / hd : 0;
}

/**
 * The hypotheses at the marker but for the candidate: Hp's known contributors typed here with their drop-outs and its
 * unknowns (a known contributor untyped here among them), and Hd whole but for the candidate as a non-contributor.
 */
function searchHypotheses(m: MixtureSearchMarker, prepared: PreparedMixtureMarker) {
  const hdHypothesis: MixtureHypothesisAtMarker = { contributors: typedWith(m, prepared, m.dropoutHd), nonContributors: [], unknowns: [m.dropoutHd[0]!, ...untypedWith(m, m.dropoutHd)] };
  return { candidateDropout: m.dropout[0]!, typedKnown: typedWith(m, prepared, m.dropout), unknowns: untypedWith(m, m.dropout), hdHypothesis };
}

/** The known contributors typed at the marker, each with its drop-out (`dropout[1 + i]`). */
function typedWith(m: MixtureSearchMarker, prepared: PreparedMixtureMarker, dropout: readonly number[]) {
  return m.knownContributors.flatMap((g, i) => (g && g.length > 0 ? [{ copies: prepared.copies(g), dropout: dropout[1 + i]! }] : []));
}

/** The unknowns' drop-outs: the known contributors not typed here, then the unknowns proper. */
function untypedWith(m: MixtureSearchMarker, dropout: readonly number[]): number[] {
  return [...m.knownContributors.flatMap((g, i) => (g && g.length > 0 ? [] : [dropout[1 + i]!])), ...dropout.slice(1 + m.knownContributors.length)];
}
