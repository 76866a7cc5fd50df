import type { EngineProfile, PopulationFrequencies } from '../types';
import { alignProfiles, type SkippedMarker } from './aligned-markers';
import { frequencyLookup, type FrequencyOf } from './allele-frequency';
import { combineIndices, type CombinedIndex } from './combined-index';
import { duoExclusionPower, trioExclusionPower } from './exclusion-power';
import { kinshipX1 } from './kinship';

/** Options of the parentage indices. */
export interface ParentageOptions {
  /** Mutation rate μ per meiosis at every locus (an analysis constant, e.g. 0.002). */
  mutationRate: number;
}

/** A combined paternity index, naming the markers where the alleged father was excluded and μ/A stood in. */
export interface ParentageIndex extends CombinedIndex {
  exclusions: string[];
}

/** Probability a parent transmits the allele: 1 from a homozygote, ½ from a heterozygote, else 0 (Mendel). */
function transmission(parent: readonly string[], allele: string): number {
  if (!parent.includes(allele)) return 0;
  return parent.length === 1 ? 1 : 0.5;
}

/** The ways to split a child's genotype into (maternal, paternal) alleles: PP one way, PQ two. */
function splits(child: readonly string[]): [string, string][] {
  const [a, b] = child;
  return b === undefined ? [[a!, a!]] : [[a!, b], [b, a!]];
}

/**
 * Trio paternity index at one locus (Evett & Weir 1998 ch. 8; AABB): P(C | M, AF) / P(C | M, random man),
 * summing over the obligate paternal alleles, so M=PQ, C=PQ gives (t_P + t_Q)/(p + q). Returns 0 when
 * the alleged father cannot transmit any obligate allele, null when the mother shares no allele with the child.
 */
export function trioLocusIndex(mother: readonly string[], child: readonly string[], father: readonly string[], freq: FrequencyOf): number | null {
  let numerator = 0;
  let denominator = 0;
  for (const [maternal, paternal] of splits(child)) {
    const fromMother = transmission(mother, maternal);
    numerator += fromMother * transmission(father, paternal);
    denominator += fromMother * freq(paternal);
  }
  return denominator === 0 ? null : numerator / denominator;
}

/** Duo paternity index at one locus: the parent–child kinship LR, X1 (Evett & Weir 1998 ch. 7; AABB). */
export function duoLocusIndex(child: readonly string[], father: readonly string[], freq: FrequencyOf): number {
  return kinshipX1(father, child, freq);
}

/** The index an exclusion contributes: μ/A, so one mutation does not zero the combined index (AABB). */
export function mutationIndex(mutationRate: number, exclusionPower: number): number {
  return mutationRate / exclusionPower;
}

/**
 * Combined trio paternity index (mother, child, alleged father) across shared markers (Evett & Weir 1998
 * ch. 8; AABB): at an excluded locus μ/A with A the trio exclusion power; a locus where the mother
 * shares no allele with the child is skipped as "mother inconsistent".
 */
export function trioPaternityIndex(
  mother: EngineProfile,
  child: EngineProfile,
  father: EngineProfile,
  population: PopulationFrequencies,
  opts: ParentageOptions,
): ParentageIndex {
  const { compared, skipped } = alignProfiles([mother, child, father], { maxAlleles: 2, population });
  const extraSkipped: SkippedMarker[] = [];
  const exclusions: string[] = [];
  const values: { marker: string; value: number }[] = [];
  for (const { marker, genotypes: [m, c, f] } of compared) {
    const index = trioLocusIndex(m!, c!, f!, frequencyLookup(population, marker));
    if (index === null) extraSkipped.push({ marker, reason: 'mother inconsistent' });
    else if (index > 0) values.push({ marker, value: index });
    else {
      exclusions.push(marker);
      values.push({ marker, value: mutationIndex(opts.mutationRate, trioExclusionPower(markerFrequencies(population, marker))) });
    }
  }
  return { ...combineIndices(values, [...skipped, ...extraSkipped]), exclusions };
}

/**
 * Combined duo paternity index (child, alleged father; no mother) across shared markers (Evett & Weir
 * 1998 ch. 7; AABB): the parent–child LR per locus, μ/A at an excluded locus with A the duo exclusion power.
 */
export function duoPaternityIndex(
  child: EngineProfile,
  father: EngineProfile,
  population: PopulationFrequencies,
  opts: ParentageOptions,
): ParentageIndex {
  const { compared, skipped } = alignProfiles([child, father], { maxAlleles: 2, population });
  const exclusions: string[] = [];
  const values = compared.map(({ marker, genotypes: [c, f] }) => {
    const index = duoLocusIndex(c!, f!, frequencyLookup(population, marker));
    if (index > 0) return { marker, value: index };
    exclusions.push(marker);
    return { marker, value: mutationIndex(opts.mutationRate, duoExclusionPower(markerFrequencies(population, marker))) };
  });
  return { ...combineIndices(values, skipped), exclusions };
}

function markerFrequencies(population: PopulationFrequencies, marker: string): number[] {
  return [...(population.markers.get(marker)?.frequencies.values() ?? [])];
}
