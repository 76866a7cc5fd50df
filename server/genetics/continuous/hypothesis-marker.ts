import { ContinuousModelError, type ContinuousHypothesis, type TypedPerson } from './continuous-types';
import type { EvidenceMarker } from './evidence-marker';

/** The genotypes of one person over a marker's genotype alleles: (a, b) with a ≤ b, in EuroForMix's order. */
export function genotypeList(alleleCount: number): [number, number][] {
  const list: [number, number][] = [];
  for (let a = 0; a < alleleCount; a++) for (let b = a; b < alleleCount; b++) list.push([a, b]);
  return list;
}

/** A hypothesis at one marker: each contributor's genotype (or unknown here) and the typed allele counts θ conditions on. */
export interface HypothesisMarker {
  /** Per contributor: its genotype's index in genotypeList, −1 for an unknown (also a known person not typed here). */
  genotypes: Int32Array;
  /** Copies of each genotype allele among the typed persons of the hypothesis (contributors and non-contributors typed here). */
  typedCounts: Float64Array;
  typedTotal: number;
}

/** A typed person's genotype at the marker as allele indices (an unseen allele is Q), or null when not typed here. */
function personGenotype(person: TypedPerson, evidence: EvidenceMarker, role: string): [number, number] | null {
  const alleles = person.get(evidence.marker);
  if (!alleles || alleles.length === 0) return null;
  if (alleles.length > 2) throw new ContinuousModelError(`${role}, ${evidence.marker}: a reference holds one or two alleles, not ${alleles.length}.`);
  const index = (allele: string) => {
    const i = evidence.positions.indexOf(allele);
    if (i >= 0 && i < evidence.seenCount) return i;
    if (!evidence.hasQ) throw new ContinuousModelError(`${role}, ${evidence.marker}: allele ${allele} is not seen and the seen alleles take every frequency (no room for an unseen one); check the frequencies.`);
    return evidence.alleleCount - 1;
  };
  const a = index(alleles[0]!);
  const b = index(alleles[1] ?? alleles[0]!);
  return a <= b ? [a, b] : [b, a];
}

/**
 * A hypothesis at one marker (EuroForMix `prepareC`: condOrder, knownRef): contributors typed here keep their
 * genotype, the others are unknowns; every typed person named by the hypothesis counts in θ's sampling formula.
 */
export function prepareHypothesisMarker(hypothesis: ContinuousHypothesis, evidence: EvidenceMarker, roles: { contributor: (k: number) => string; nonContributor: (i: number) => string }): HypothesisMarker {
  const n = evidence.alleleCount;
  const typedCounts = new Float64Array(n);
  let typedTotal = 0;
  const count = (genotype: [number, number] | null) => {
    if (!genotype) return;
    typedCounts[genotype[0]]! += 1;
    typedCounts[genotype[1]]! += 1;
    typedTotal += 2;
  };
  const genotypes = Int32Array.from(hypothesis.contributors, (person, k) => {
    const genotype = person ? personGenotype(person, evidence, roles.contributor(k)) : null;
    count(genotype);
    return genotype ? genotype[0] * n - (genotype[0] * (genotype[0] - 1)) / 2 + (genotype[1] - genotype[0]) : -1;
  });
  hypothesis.nonContributors.forEach((person, i) => count(personGenotype(person, evidence, roles.nonContributor(i))));
  return { genotypes, typedCounts, typedTotal };
}
