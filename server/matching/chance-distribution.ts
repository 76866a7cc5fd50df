// GENETICS.md "Expected chance hits", the matcher's side: the per-marker LR of an unrelated candidate
// comes from the same evaluator the database scan uses (analysis-scan.ts), so the reported P(LR ≥ t)
// is about the very numbers the scan compares with its threshold.
import { compareAlleles, isComparable, parseAllele } from '../../core/alleles';
import { MAX_INCONSISTENCIES } from '../genetics/evaluate-analysis';
import { hardyWeinbergGenotypes, lrDistribution, OTHER_ALLELE, poissonBinomialAtMost, unrelatedGenotypeAtoms, type LrAtom, type LrDistribution } from '../genetics/statistics';
import type { Genotype, MarkerFrequencies } from '../genetics/types';
import { compareGenotypes, isComparableGenotype } from './genotype-comparison';
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
 * Candidate genotypes of hardyWeinbergGenotypes as a stored profile holds them: OTHER_ALLELE replaced
 * by `other`, a heterozygote in core/alleles order (each allele ranked once, not parsed per genotype).
 */
function storedGenotypes(alleles: Iterable<string>, other: string): (genotype: readonly string[]) => Genotype {
  const named = (a: string) => (a === OTHER_ALLELE ? other : a);
  const rank = new Map([...new Set([...alleles].map(named))].sort(compareAlleles).map((a, i) => [a, i]));
  return (genotype) => {
    const stored = genotype.map(named);
    return stored.length === 2 && rank.get(stored[0]!)! > rank.get(stored[1]!)! ? [stored[1]!, stored[0]!] : stored;
  };
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
    const stored = storedGenotypes([...frequencies.frequencies.keys(), ...extra, OTHER_ALLELE], unlistedAllele(frequencies, genotype));
    markers.push(
      unrelatedGenotypeAtoms(frequencies.frequencies, {
        extraAlleles: extra,
        sampleSize: frequencies.sampleSize,
        minimumAlleleFrequency: population.frequencies.minimumAlleleFrequency,
        lrOf: (g) => {
          const candidate = stored(g);
          return evaluate(queryRole === 0 ? [genotype, candidate] : [candidate, genotype]);
        },
      }),
    );
  }
  const maxInconsistencies = analysis.constants[MAX_INCONSISTENCIES];
  return lrDistribution(markers, maxInconsistencies === undefined ? options : { ...options, maxInconsistencies });
}

/**
 * The probability that an UNRELATED random profile satisfies a CODIS stringency search for `query`
 * (GENETICS.md "Expected chance hits", "Database search"): per compared query marker s_m, the
 * Hardy–Weinberg probability that a random genotype meets the stringency with the query's genotype
 * (compareGenotypes, so a mixture query works: moderate is one allele set inside the other), then
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
    const extra = extraAlleles(genotype);
    const stored = storedGenotypes([...frequencies.frequencies.keys(), ...extra, OTHER_ALLELE], unlistedAllele(frequencies, genotype));
    const genotypes = hardyWeinbergGenotypes(frequencies.frequencies, {
      extraAlleles: extra,
      sampleSize: frequencies.sampleSize,
      minimumAlleleFrequency: population.frequencies.minimumAlleleFrequency,
    });
    let satisfied = 0;
    for (const g of genotypes) if (compareGenotypes(stringency, genotype, stored(g.genotype)) === 'match') satisfied += g.probability;
    perMarker.push(Math.min(1, satisfied));
  }
  const probability = perMarker.length < options.minMarkers ? 0 : poissonBinomialAtMost(perMarker.map((s) => 1 - s), options.maxMismatches);
  return { probability, perMarker };
}
