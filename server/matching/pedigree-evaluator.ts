import { unusable } from '../genetics/evaluate-analysis';
import { MutationModelError, mutationMatrix, PedigreeError, pedigreeMarkerAlleles, targetJoint, type MutationModels, type PedigreeHypotheses } from '../genetics/pedigree';
import type { Genotype, PopulationFrequencies } from '../genetics/types';

/** A pairwise analysis that weighs mutation through its pedigree (issue 16): its hypotheses and each marker's models. */
export interface PedigreeWeighing {
  hypotheses: PedigreeHypotheses;
  models: (marker: string) => MutationModels;
  /** The analysis's mutation setting `models` reads: a search worker, which cannot be sent a function, rebuilds `models` from it. */
  mutation: MutationSetting;
}

/** An analysis's stored mutation setting: sex-wise models, and per marker ones that replace them. */
export type MutationSetting = { female: MutationModels['female']; male: MutationModels['male']; markers: readonly ({ marker: string } & MutationModels)[] } | null;

/** A marker's LR for a pair of genotypes, or null where the calculator leaves the marker out. */
export type PairLr = (genotypes: readonly (Genotype | null)[]) => number | null;

/**
 * The per-marker LR of a two-role pedigree analysis for a search (GENETICS.md "How the search reaches memory speed"):
 * with the genotype of role `fixed` given, one elimination per hypothesis keeps the other person's alleles, so every
 * genotype of the other role gets P(both | H1) / P(both | H2) at once — exactly the calculator's pedigree LR (the
 * alleles the population's and both persons', rare ones at the minimum frequency). A candidate allele outside that
 * set gets a table of its own, as the calculator would add it. Null: a genotype not comparable, no frequencies, a
 * model that cannot place an allele, or genotypes impossible under H2.
 */
export function pedigreePairLr(weighing: PedigreeWeighing, roles: readonly string[], marker: string, population: PopulationFrequencies | null, fixed: 0 | 1 = 0): PairLr {
  const frequencies = population?.markers.get(marker);
  const models = weighing.models(marker);
  const { h1, h2 } = weighing.hypotheses;
  const [fixedPerson, otherPerson] = [roles[fixed]!, roles[1 - fixed]!];
  const tables = new Map<string, ((a: string, b: string) => number | null) | null>();
  const tableFor = (given: Genotype, extra: readonly string[]) => {
    const key = `${given.join('/')}|${extra.join('/')}`;
    if (tables.has(key)) return tables.get(key)!;
    let table: ((a: string, b: string) => number | null) | null = null;
    try {
      const { alleles, frequencies: p } = pedigreeMarkerAlleles(population!, marker, [...given, ...extra]);
      const built = { alleles, frequencies: p, female: mutationMatrix(models.female, alleles, p), male: mutationMatrix(models.male, alleles, p) };
      const typed = new Map([[fixedPerson, given]]);
      const one = targetJoint(h1, typed, otherPerson, built).joint;
      const two = targetJoint(h2, typed, otherPerson, built).joint;
      const at = new Map(alleles.map((a, i) => [a, i]));
      const n = alleles.length;
      table = (a, b) => {
        const [x, y] = [at.get(a)!, at.get(b)!];
        const cell = Math.min(x, y) * n + Math.max(x, y);
        return two[cell]! > 0 ? one[cell]! / two[cell]! : null;
      };
    } catch (error) {
      if (!(error instanceof PedigreeError || error instanceof MutationModelError)) throw error;
    }
    tables.set(key, table);
    return table;
  };
  return (genotypes) => {
    if (!frequencies || frequencies.frequencies.size === 0 || genotypes.length !== 2) return null;
    const given = genotypes[fixed];
    const other = genotypes[1 - fixed];
    if (!given || !other || given.length === 0 || other.length === 0 || unusable(given, 'Autosomal') || unusable(other, 'Autosomal')) return null;
    const extra = [...new Set(other.filter((a) => !frequencies.frequencies.has(a) && !given.includes(a)))].sort();
    return tableFor(given, extra)?.(other[0]!, other[other.length - 1]!) ?? null;
  };
}
