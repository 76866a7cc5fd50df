import { mutationProbability, type MutationMatrix } from './mutation-model';
import { orderPedigree, PedigreeError, type PedigreePerson } from './pedigree';
import { sumProduct, type Factor } from './variable-elimination';

/** One marker's model: its alleles with their founder frequencies, and each sex's mutation matrix over those alleles. */
export interface PedigreeMarker {
  alleles: readonly string[];
  frequencies: readonly number[];
  female: MutationMatrix;
  male: MutationMatrix;
}

/**
 * P(the typed genotypes | pedigree) at one marker (GENETICS.md "Pedigrees"): founders' alleles drawn independently
 * from the frequencies (Hardy–Weinberg), each child receiving one allele from each parent, the parent's two alleles
 * equally likely and passed through the parent's sex's mutation matrix (every transmission, untyped founders' too),
 * summed exactly over every untyped person's alleles (Elston & Stewart 1971; Lauritzen & Sheehan 2003, as
 * variable elimination over ordered allele pairs). `typed` maps a person to their one or two alleles.
 */
export function pedigreeLikelihood(persons: readonly PedigreePerson[], typed: ReadonlyMap<string, readonly string[]>, marker: PedigreeMarker): number {
  const ordered = orderPedigree(persons);
  const n = marker.alleles.length;
  if (marker.frequencies.length !== n) throw new PedigreeError('Each allele of the marker needs its frequency.');
  for (const m of [marker.female, marker.male]) {
    if (m.alleles.length !== n || m.alleles.some((a, i) => a !== marker.alleles[i])) throw new PedigreeError('The mutation matrices must be over the marker\'s alleles, in the same order.');
  }
  const alleleIndex = new Map(marker.alleles.map((a, i) => [a, i]));
  const byId = new Map(ordered.map((p) => [p.id, p]));
  for (const [id, genotype] of typed) {
    if (!byId.has(id)) throw new PedigreeError(`${id} is typed but not in the pedigree.`);
    if (genotype.length < 1 || genotype.length > 2) throw new PedigreeError(`${id} needs one or two alleles at a marker for a pedigree (${genotype.length} given).`);
    const unknown = genotype.find((a) => !alleleIndex.has(a));
    if (unknown !== undefined) throw new PedigreeError(`Allele ${unknown} of ${id} has no frequency at this marker.`);
  }

  // Only persons who are typed or have a typed descendant matter: the others' alleles sum out to 1.
  const needed = new Set<string>();
  for (const p of [...ordered].reverse()) {
    if (typed.has(p.id) || ordered.some((c) => needed.has(c.id) && (c.father === p.id || c.mother === p.id))) needed.add(p.id);
  }
  const people = ordered.filter((p) => needed.has(p.id));
  const slot = new Map(people.map((p, k) => [p.id, k]));

  // Variables 2k and 2k+1: person k's alleles from father and from mother, each over a domain of allele indices.
  const domains: number[][] = [];
  for (const p of people) {
    const genotype = typed.get(p.id);
    const domain = genotype ? [...new Set(genotype.map((a) => alleleIndex.get(a)!))] : marker.alleles.map((_, i) => i);
    domains.push(domain, domain);
  }
  const size = domains.map((d) => d.length);
  const factors: Factor[] = [];
  for (const p of people) {
    const k = slot.get(p.id)!;
    if (p.father === undefined) {
      for (const v of [2 * k, 2 * k + 1]) factors.push({ vars: [v], table: Float64Array.from(domains[v]!, (a) => marker.frequencies[a]!) });
    } else {
      for (const [parentId, matrix, v] of [[p.father, marker.male, 2 * k], [p.mother!, marker.female, 2 * k + 1]] as const) {
        const parent = slot.get(parentId)!;
        const [from1, from2] = [domains[2 * parent]!, domains[2 * parent + 1]!];
        const to = domains[v]!;
        const table = new Float64Array(from1.length * from2.length * to.length);
        let at = 0;
        for (const x of from1) for (const y of from2) for (const a of to) table[at++] = 0.5 * mutationProbability(matrix, x, a) + 0.5 * mutationProbability(matrix, y, a);
        factors.push({ vars: [2 * parent, 2 * parent + 1, v], table });
      }
    }
    // A heterozygote's two alleles came one from each parent, in either order; a homozygote's domain says it all.
    const genotype = typed.get(p.id);
    if (genotype && domains[2 * k]!.length === 2) factors.push({ vars: [2 * k, 2 * k + 1], table: Float64Array.of(0, 1, 1, 0) });
  }
  return sumProduct(factors, size);
}
