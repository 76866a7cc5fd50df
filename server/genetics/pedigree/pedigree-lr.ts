import type { Genotype, PopulationFrequencies } from '../types';
import { alleleFrequency } from '../statistics/allele-frequency';
import { packed } from './packed-array';
import { mutationMatrix, type MutationModelSpec } from './mutation-model';
import { orderPedigree, PedigreeError, type PedigreePerson } from './pedigree';
import { consistentWithoutMutation, hardyWeinberg, pedigreeLikelihood, targetJoint, type PedigreeMarker } from './pedigree-likelihood';

/** One sex's model for every marker, or per marker where a marker has its own. */
export interface MutationModels {
  female: MutationModelSpec;
  male: MutationModelSpec;
}

/** How a marker reads under H1 (GENETICS.md "Pedigrees": consistent / needs a mutation / excluded). */
export type PedigreeMarkerVerdict = 'consistent' | 'needs a mutation' | 'excluded';

export interface PedigreeMarkerResult {
  marker: string;
  /** The alleles and the founder frequencies used, the minimum allele frequency applied (every parameter shown). */
  alleles: string[];
  frequencies: number[];
  likelihoodH1: number;
  likelihoodH2: number;
  lr: number;
  verdict: PedigreeMarkerVerdict;
}

export interface PedigreeLrResult {
  markers: PedigreeMarkerResult[];
  /** Π over the markers (unlinked), and its log10 summed per marker so that no product underflows. */
  lr: number;
  log10Lr: number;
}

/**
 * The marker's alleles for a pedigree: the population's, and any typed allele it lacks, each at its frequency
 * raised to the minimum allele frequency (NRC II 1996 rec. 4.10), as GENETICS.md "Pedigrees" says of founders;
 * then scaled to sum to 1, so founders draw from a distribution (pedtools, which forrel and pedmut build on,
 * requires it). Without the scaling an untyped founder would weigh Σp ≠ 1, and a pruned and an unpruned
 * computation of the same likelihood would differ by powers of Σp.
 */
export function pedigreeMarkerAlleles(population: PopulationFrequencies, marker: string, typedAlleles: Iterable<string>): { alleles: string[]; frequencies: number[] } {
  const known = [...(population.markers.get(marker)?.frequencies.keys() ?? [])];
  const alleles = [...new Set([...known, ...typedAlleles])].sort((a, b) => Number(a) - Number(b) || a.localeCompare(b));
  const raised = packed(alleles.length, (i) => alleleFrequency(population, marker, alleles[i]!));
  const total = raised.reduce((s, f) => s + f, 0);
  return { alleles, frequencies: packed(raised.length, (i) => raised[i]! / total) };
}

/**
 * The typed person H2 sets apart from H1's family, when that is all H2 changes: H2 holds H1's persons as they are
 * except that one, who is a founder in H2 and nobody's parent in either. Then P(typed | H2) = P(the others | H1
 * without that person typed) · P(their genotype), and both likelihoods come from one elimination (targetJoint).
 */
export function detachedPerson(h1: readonly PedigreePerson[], h2: readonly PedigreePerson[], typed: ReadonlySet<string>): string | undefined {
  if (h1.length !== h2.length) return undefined;
  const inH2 = new Map(h2.map((p) => [p.id, p]));
  const changed = h1.filter((p) => {
    const q = inH2.get(p.id);
    return !q || q.sex !== p.sex || q.father !== p.father || q.mother !== p.mother;
  });
  if (changed.length !== 1) return undefined;
  const [x] = changed;
  const q = inH2.get(x!.id);
  const parent = (list: readonly PedigreePerson[]) => list.some((p) => p.father === x!.id || p.mother === x!.id);
  return q && q.sex === x!.sex && q.father === undefined && typed.has(x!.id) && !parent(h1) && !parent(h2) ? x!.id : undefined;
}

/** The likelihood of the typed persons' genotypes under each hypothesis, per marker; H1's also without mutation, for the verdict. */
function markerResult(h1: readonly PedigreePerson[], h2: readonly PedigreePerson[], marker: string, typed: ReadonlyMap<string, Genotype>, population: PopulationFrequencies, models: MutationModels): PedigreeMarkerResult {
  const { alleles, frequencies } = pedigreeMarkerAlleles(population, marker, [...typed.values()].flat());
  const built: PedigreeMarker = { alleles, frequencies, female: mutationMatrix(models.female, alleles, frequencies), male: mutationMatrix(models.male, alleles, frequencies) };
  let likelihoodH1: number;
  let likelihoodH2: number;
  const apart = detachedPerson(h1, h2, new Set(typed.keys()));
  if (apart !== undefined) {
    const others = new Map([...typed].filter(([id]) => id !== apart));
    const { joint, relatives } = targetJoint(h1, others, apart, built);
    const index = new Map(alleles.map((a, i) => [a, i]));
    const genotype = typed.get(apart)!;
    const g = packed(genotype.length, (i) => index.get(genotype[i]!)!);
    const [lo, hi] = [Math.min(g[0]!, g.at(-1)!), Math.max(g[0]!, g.at(-1)!)];
    likelihoodH1 = joint[lo * alleles.length + hi]!;
    likelihoodH2 = relatives * hardyWeinberg(frequencies, lo, hi);
  } else {
    likelihoodH1 = pedigreeLikelihood(h1, typed, built);
    likelihoodH2 = pedigreeLikelihood(h2, typed, built);
  }
  if (likelihoodH2 === 0) throw new PedigreeError(`At ${marker} the typed genotypes are impossible under H2; an LR needs H2 to allow them.`);
  const verdict: PedigreeMarkerVerdict = consistentWithoutMutation(h1, typed, alleles.length) ? 'consistent' : likelihoodH1 > 0 ? 'needs a mutation' : 'excluded';
  return { marker, alleles, frequencies, likelihoodH1, likelihoodH2, lr: likelihoodH1 / likelihoodH2, verdict };
}

/**
 * LR = L(H1)/L(H2) per marker and its product over unlinked markers (Egeland, Kling & Mostad 2016, ch. 2): two
 * pedigrees over the same typed persons, the typed genotypes per marker, founders from the population.
 */
export function pedigreeLr(
  h1: readonly PedigreePerson[],
  h2: readonly PedigreePerson[],
  genotypes: ReadonlyMap<string, ReadonlyMap<string, Genotype>>,
  population: PopulationFrequencies,
  models: MutationModels | ((marker: string) => MutationModels),
): PedigreeLrResult {
  const inH1 = new Set(orderPedigree(h1).map((p) => p.id));
  const inH2 = new Set(orderPedigree(h2).map((p) => p.id));
  const markers: PedigreeMarkerResult[] = [];
  for (const [marker, typed] of genotypes) {
    for (const id of typed.keys()) {
      if (!inH1.has(id) || !inH2.has(id)) throw new PedigreeError(`${id} is typed but missing from ${inH1.has(id) ? 'H2' : 'H1'}; both hypotheses hold every typed person.`);
    }
    markers.push(markerResult(h1, h2, marker, typed, population, typeof models === 'function' ? models(marker) : models));
  }
  const log10Lr = markers.reduce((s, m) => s + Math.log10(m.lr), 0);
  return { markers, lr: 10 ** log10Lr, log10Lr };
}
