import { isAmelogenin } from '../../core/alleles';
import type { Genotype, PopulationFrequencies } from '../genetics/types';
import type { ProfileKind } from './types';

/** A population a rule or search did not weigh with, and why (issue 30: named in the hit's figures and the search's answer). */
export interface SkippedPopulation {
  populationId: string;
  populationName: string;
  reason: string;
}

/** Why a population is not evaluated for a profile: it holds frequencies for none of its markers. */
export const noMarkerReason = (markers: number) => `not evaluated: it holds frequencies for none of the profile's ${markers} marker${markers === 1 ? '' : 's'}`;

/**
 * The populations that can weigh a profile, and the others as not evaluated (GENETICS.md "Analyses are data": a
 * population that evaluates no marker is "not evaluated", never LR 1). An autosomal population weighs the profile when
 * it holds frequencies for at least one of its markers, Amelogenin aside; a Y-STR population (a haplotype table)
 * always does. Skipped, a population never blocks a rule nor becomes the reported one.
 */
export function evaluablePopulations<P extends { id: string; name: string; kind: ProfileKind; frequencies: PopulationFrequencies }>(populations: readonly P[], genotypes: ReadonlyMap<string, Genotype>): { usable: P[]; skipped: SkippedPopulation[] } {
  const markers = [...genotypes.keys()].filter((m) => !isAmelogenin(m) && (genotypes.get(m)?.length ?? 0) > 0);
  const usable: P[] = [];
  const skipped: SkippedPopulation[] = [];
  for (const p of populations) {
    if (p.kind === 'YStr' || markers.some((m) => p.frequencies.markers.has(m))) usable.push(p);
    else skipped.push({ populationId: p.id, populationName: p.name, reason: noMarkerReason(markers.length) });
  }
  return { usable, skipped };
}

/**
 * A stain's markers over its replicates, each with every allele any replicate shows (an allele seen in one run is
 * evidence, whatever the others show): the profile whose populations evaluablePopulations checks. A replicate's marker
 * typed with no allele (everything dropped out) does not hide another replicate's alleles there.
 */
export function pooledGenotypes(replicates: Iterable<ReadonlyMap<string, Genotype>>): Map<string, Genotype> {
  const pooled = new Map<string, Set<string>>();
  for (const replicate of replicates) for (const [marker, alleles] of replicate) for (const a of alleles) (pooled.get(marker) ?? pooled.set(marker, new Set()).get(marker)!).add(a);
  for (const replicate of replicates) for (const marker of replicate.keys()) if (!pooled.has(marker)) pooled.set(marker, new Set());
  return new Map([...pooled].map(([marker, alleles]) => [marker, [...alleles]]));
}
