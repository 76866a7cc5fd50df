// GENETICS.md "Expected chance hits", the matcher's side: the per-marker LR of an unrelated candidate
// comes from the same evaluator the database scan uses (analysis-scan.ts), so the reported P(LR ≥ t)
// is about the very numbers the scan compares with its threshold.
import { compareAlleles, isComparable, parseAllele } from '../../core/alleles';
import { MAX_INCONSISTENCIES } from '../genetics/evaluate-analysis';
import { hardyWeinbergAlleles, lrDistribution, OTHER_ALLELE, poissonBinomialAtMost, unrelatedGenotypeAtoms, type LrAtom, type LrDistribution } from '../genetics/statistics';
import type { Genotype, MarkerFrequencies } from '../genetics/types';
import { isComparableGenotype } from './genotype-comparison';
import { markerEvaluator } from './marker-evaluator';
import { isIgnoredMarker } from './profile-index';
import type { IdentityOptions, MatchAnalysis, MatchPopulation, Stringency } from './types';

/** The query's alleles a random candidate can share: those the population does not list get the minimum allele frequency (hardyWeinbergGenotypes). */
function extraAlleles(genotype: Genotype): string[] {
  return genotype.filter((a) => isComparable(parseAllele(a)));
}

/**
 * A real designation standing for the pseudo-allele OTHER_ALLELE (the unlisted alleles): an integer
 * neither the population nor the query holds, so the evaluator and the stringency comparison treat it
 * as an allele the query does not carry (its frequency, if a formula asked, is the minimum).
 */
function unlistedAllele(frequencies: MarkerFrequencies, genotype: Genotype): string {
  const taken = new Set([...frequencies.frequencies.keys(), ...genotype]);
  let n = 9999;
  while (taken.has(String(n))) n++;
  return String(n);
}

/**
 * Candidate genotypes of hardyWeinbergGenotypes by the positions of their alleles (i = j: the homozygote), as a
 * stored profile holds them: OTHER_ALLELE replaced by `other`, a heterozygote in core/alleles order (the alleles
 * ranked once per marker, not each genotype's copied and sorted: thousands per search, issue 29).
 */
function storedGenotypes(alleles: readonly string[], other: string): (i: number, j: number) => Genotype {
  const named = alleles.map((a) => (a === OTHER_ALLELE ? other : a));
  const rank = new Int32Array(named.length);
  [...named.keys()].sort((x, y) => compareAlleles(named[x]!, named[y]!)).forEach((position, r) => (rank[position] = r));
  return (i, j) => (i === j ? [named[i]!] : rank[i]! < rank[j]! ? [named[i]!, named[j]!] : [named[j]!, named[i]!]);
}

/** The query markers a chance estimate covers: not Amelogenin (never indexed), and with frequencies in the population. */
function coveredMarkers(query: ReadonlyMap<string, Genotype>, population: MatchPopulation): [string, Genotype, MarkerFrequencies][] {
  const covered: [string, Genotype, MarkerFrequencies][] = [];
  for (const [marker, genotype] of query) {
    const frequencies = population.frequencies.markers.get(marker);
    if (isIgnoredMarker(marker) || !frequencies || frequencies.frequencies.size === 0) continue;
    covered.push([marker, genotype, frequencies]);
  }
  return covered;
}

/**
 * The distribution of log10 LR of an UNRELATED candidate against `query` in `queryRole` (GENETICS.md
 * "Expected chance hits"; Tippett et al. 1968): per query marker, the Hardy–Weinberg genotypes of
 * the population (hardyWeinbergGenotypes) each with the LR the database scan would compute — the
 * same markerEvaluator, the query's genotype in its role and the candidate's in the other (value null:
 * factor 1; 0: LR 0). Amelogenin and markers without frequencies are skipped; the candidate is taken
 * as typed at every other query marker. More markers inconsistent with the relationship than the
 * analysis's `maxInconsistencies` is LR 0, as the scan's verdict (GENETICS.md "Parentage with
 * inconsistencies"). Autosomal two-role computational analyses only.
 */
export function unrelatedDistribution(
  analysis: MatchAnalysis,
  query: ReadonlyMap<string, Genotype>,
  queryRole: 0 | 1,
  population: MatchPopulation,
  options: { step?: number } = {},
): LrDistribution {
  if (analysis.kind !== 'Computational' || analysis.profileKind !== 'Autosomal' || analysis.roles.length !== 2) {
    throw new Error(`expected chance hits are computed for autosomal two-role computational analyses only, not ${analysis.profileKind} ${analysis.kind} with ${analysis.roles.length} roles (analysis ${analysis.id})`);
  }
  const markers: LrAtom[][] = [];
  for (const [marker, genotype, frequencies] of coveredMarkers(query, population)) {
    const evaluate = markerEvaluator(analysis, marker, population.frequencies, queryRole);
    const extra = extraAlleles(genotype);
    const other = unlistedAllele(frequencies, genotype);
    markers.push(
      unrelatedGenotypeAtoms(frequencies.frequencies, {
        extraAlleles: extra,
        sampleSize: frequencies.sampleSize,
        minimumAlleleFrequency: population.frequencies.minimumAlleleFrequency,
        lrOfPair: (alleles) => {
          const stored = storedGenotypes(alleles, other);
          // One pair of roles for every candidate: the evaluator reads the genotypes and keeps neither the pair nor its candidate.
          const roles: Genotype[] = [genotype, genotype];
          return (i, j) => {
            roles[1 - queryRole] = stored(i, j);
            return evaluate(roles);
          };
        },
      }),
    );
  }
  const maxInconsistencies = analysis.constants[MAX_INCONSISTENCIES];
  return lrDistribution(markers, maxInconsistencies === undefined ? options : { ...options, maxInconsistencies });
}

/**
 * The Hardy–Weinberg probability that a random genotype {a, b} meets `stringency` with a comparable query genotype of
 * distinct alleles Q (compareGenotypes), in closed form over hardyWeinbergGenotypes' frequencies, S = Σ p over Q:
 * high — the same set (p² for Q = {q}, 2pq for {q, r}, 0 for more); moderate — one set inside the other
 * (1 − (1 − p)² for Q = {q}: every genotype holding q; S² otherwise: both alleles from Q); low — a shared allele
 * (1 − (1 − S)²). The unlisted pseudo-allele is never the query's. Tests hold it to the enumeration of every genotype.
 */
function stringencyProbability(stringency: Stringency, genotype: Genotype, frequencies: MarkerFrequencies, minimumAlleleFrequency: number): number {
  const extra = extraAlleles(genotype);
  const normalised = new Map(hardyWeinbergAlleles(frequencies.frequencies, { extraAlleles: extra, sampleSize: frequencies.sampleSize, minimumAlleleFrequency }));
  const distinct = [...new Set(genotype)].map((a) => normalised.get(a)!);
  const sum = distinct.reduce((s, p) => s + p, 0);
  if (stringency === 'low') return 1 - (1 - sum) ** 2;
  if (stringency === 'moderate') return distinct.length === 1 ? 1 - (1 - sum) ** 2 : sum * sum;
  return distinct.length === 1 ? sum * sum : distinct.length === 2 ? 2 * distinct[0]! * distinct[1]! : 0;
}

/**
 * The probability that an UNRELATED random profile satisfies a CODIS stringency search for `query`
 * (GENETICS.md "Expected chance hits", "Database search"): per compared query marker s_m, the
 * Hardy–Weinberg probability that a random genotype meets the stringency with the query's genotype
 * (stringencyProbability, so a mixture query works: moderate is one allele set inside the other), then
 * P(at most maxMismatches of them fail) by the Poisson-binomial DP. Compared markers: comparable query
 * genotypes outside Amelogenin with frequencies in the population, the candidate taken as typed at
 * each; fewer than minMarkers of them gives 0. `perMarker` lists s_m in the query's marker order.
 */
export function stringencyMatchProbability(
  stringency: Stringency,
  query: ReadonlyMap<string, Genotype>,
  population: MatchPopulation,
  options: Pick<IdentityOptions, 'minMarkers' | 'maxMismatches'>,
): { probability: number; perMarker: number[] } {
  const perMarker: number[] = [];
  for (const [, genotype, frequencies] of coveredMarkers(query, population)) {
    if (!isComparableGenotype(genotype)) continue;
    perMarker.push(Math.min(1, stringencyProbability(stringency, genotype, frequencies, population.frequencies.minimumAlleleFrequency)));
  }
  const probability = perMarker.length < options.minMarkers ? 0 : poissonBinomialAtMost(perMarker.map((s) => 1 - s), options.maxMismatches);
  return { probability, perMarker };
}
