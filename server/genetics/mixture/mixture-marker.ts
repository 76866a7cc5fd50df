import { compareAlleles } from '../../../core/alleles';
import { alleleFrequency } from '../statistics/allele-frequency';
import type { Genotype, PopulationFrequencies } from '../types';
import type { ClassCopies, MixtureMarker } from './mixture-likelihood';

/** The merged class's name in reports: every allele neither seen nor named apart. */
export const OTHER_ALLELES = 'other';

/** How a marker's frequencies are taken: the minimum allele frequency rule always; `normalize` rescales the whole table to sum to 1 after it. */
export interface FrequencyRule {
  normalize: boolean;
}

/** A marker prepared for the likelihood, with what a report shows: the seen alleles, their frequencies and the remainder. */
export interface PreparedMixtureMarker extends MixtureMarker {
  /** The seen alleles in designation order, then OTHER_ALLELES when any frequency remains. */
  alleles: string[];
  /** The class of an allele: its own when seen, else the merged one (-1 when there is none: every allele is seen). */
  classOf(allele: string): number;
  copies(genotype: Genotype | undefined): ClassCopies;
}

/**
 * The classes of one marker (GENETICS.md "Mixtures"): each allele seen in a replicate with its frequency (NRC II
 * 1996 rec. 4.10, the minimum allele frequency for a rare or absent one), and one class for every other allele
 * with the remaining frequency 1 − Σ (0 when the seen alleles take it all). `replicates` lists the alleles each
 * replicate shows at this marker (an empty list: nothing seen). `alwaysOther` keeps the merged class even when
 * nothing falls in it (a search's candidates may carry any allele).
 */
export function prepareMixtureMarker(population: PopulationFrequencies, marker: string, replicates: readonly Genotype[], typed: readonly Genotype[], rule: FrequencyRule, alwaysOther = false): PreparedMixtureMarker {
  const seenAlleles = [...new Set(replicates.flat())].sort(compareAlleles);
  const typedAlleles = typed.flat();
  // Inline arrows, not named ones: under tsx (esbuild keepNames) each named closure costs a defineProperty when made.
  let sum: number | null = null;
  if (rule.normalize) {
    const table = new Set([...(population.markers.get(marker)?.frequencies.keys() ?? []), ...seenAlleles, ...typedAlleles]);
    sum = [...table].reduce((s, a) => s + alleleFrequency(population, marker, a), 0);
  }
  const seenFrequencies = seenAlleles.map((a) => (sum === null ? alleleFrequency(population, marker, a) : alleleFrequency(population, marker, a) / sum));
  const remaining = Math.max(0, 1 - seenFrequencies.reduce((s, p) => s + p, 0));
  // The merged class stays when typed persons carry an unseen allele even if no frequency remains (θ counts them).
  const unseenTyped = typedAlleles.some((a) => !seenAlleles.includes(a));
  // A search keeps the class for every candidate's sake; with no frequency and no typed copies it weighs nothing.
  const withOther = remaining > 0 || unseenTyped || alwaysOther;
  const alleles = withOther ? [...seenAlleles, OTHER_ALLELES] : seenAlleles;
  const frequencies = Float64Array.from(withOther ? [...seenFrequencies, remaining] : seenFrequencies);
  const index = new Map(seenAlleles.map((a, i) => [a, i]));
  const other = withOther ? seenAlleles.length : -1;
  const seen = replicates.map((alleles) => {
    const flags = new Uint8Array(frequencies.length);
    for (const a of alleles) flags[index.get(a)!] = 1;
    return flags;
  });
  // classOf reads no `this`: callers pass it on alone.
  const prepared: PreparedMixtureMarker = {
    frequencies,
    seen,
    alleles,
    classOf(allele) {
      return index.get(allele) ?? other;
    },
    copies(genotype) {
      const copies = new Int32Array(frequencies.length);
      if (!genotype) return copies;
      // One allele written for a homozygote stands for two copies.
      const both = genotype.length === 1 ? [genotype[0]!, genotype[0]!] : genotype;
      for (const a of both) copies[prepared.classOf(a)]!++;
      return copies;
    },
  };
  return prepared;
}
