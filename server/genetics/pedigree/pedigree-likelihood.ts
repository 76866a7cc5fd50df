import type { MutationMatrix } from './mutation-model';
import { orderPedigree, PedigreeError, type PedigreePerson } from './pedigree';
import { marginal, sumProduct, type Factor } from './variable-elimination';

/** One marker's model: its alleles with their founder frequencies, and each sex's mutation matrix over those alleles. */
export interface PedigreeMarker {
  alleles: readonly string[];
  frequencies: readonly number[];
  female: MutationMatrix;
  male: MutationMatrix;
}

/** Equal to the last bits a double holds: a model is lumpable only when the entries agree exactly (up to rounding). */
const same = (a: number, b: number) => Math.abs(a - b) <= 1e-14 * Math.max(Math.abs(a), Math.abs(b), 1e-300);

/**
 * Whether the alleles `lump` (indices) can be merged into one for matrix m: strongly lumpable, every allele of the lump
 * reaching each allele outside it with the same probability (Kemeny & Snell 1960; pedmut `alwaysLumpable`). The
 * identity, "equal" and "proportional" models always are; stepwise models in general are not.
 */
function lumpable(m: MutationMatrix, lump: readonly number[], keep: readonly number[]): boolean {
  const n = m.alleles.length;
  return keep.every((i) => lump.every((l) => same(m.values[l * n + i]!, m.values[lump[0]! * n + i]!)));
}

/** The matrix over the kept alleles and one lump last: rows of kept alleles sum their entries into the lump. */
function lumpMatrix(m: MutationMatrix, lump: readonly number[], keep: readonly number[]): MutationMatrix {
  const n = m.alleles.length;
  const k = keep.length + 1;
  const values = new Float64Array(k * k);
  const rows = [...keep, lump[0]!];
  rows.forEach((from, r) => {
    let toKept = 0;
    keep.forEach((to, c) => {
      values[r * k + c] = m.values[from * n + to]!;
      toKept += m.values[from * n + to]!;
    });
    values[r * k + k - 1] = r < keep.length ? lump.reduce((s, to) => s + m.values[from * n + to]!, 0) : 1 - toKept;
  });
  return { alleles: [...keep.map((i) => m.alleles[i]!), LUMP], values, spec: m.spec };
}

/** The name of the merged allele of a lumped marker (no designation can be empty). */
const LUMP = '';

/**
 * The marker with every allele no typed person carries merged into one, when both sexes' models allow it (exact:
 * founders draw the lump with its summed frequency). Never when only one sex's model is lumpable (pedmut 0.9.1
 * lumps then, wrongly; GENETICS.md "Mutation models").
 */
export function lumpUntypedAlleles(marker: PedigreeMarker, typedAlleles: ReadonlySet<string>): PedigreeMarker {
  const keep = marker.alleles.flatMap((a, i) => (typedAlleles.has(a) ? [i] : []));
  const lump = marker.alleles.flatMap((a, i) => (typedAlleles.has(a) ? [] : [i]));
  if (lump.length < 2 || !lumpable(marker.female, lump, keep) || !lumpable(marker.male, lump, keep)) return marker;
  return {
    alleles: [...keep.map((i) => marker.alleles[i]!), LUMP],
    frequencies: [...keep.map((i) => marker.frequencies[i]!), lump.reduce((s, i) => s + marker.frequencies[i]!, 0)],
    female: lumpMatrix(marker.female, lump, keep),
    male: lumpMatrix(marker.male, lump, keep),
  };
}

/** The factors of a pedigree at one marker over its persons' ordered alleles, and where each person's two variables are. */
interface PedigreeFactors {
  factors: Factor[];
  size: number[];
  slot: Map<string, number>;
}

/** Checks the marker and the typed persons against the pedigree; returns the pedigree parents first. */
function checkInputs(persons: readonly PedigreePerson[], typed: ReadonlyMap<string, readonly string[]>, marker: PedigreeMarker): PedigreePerson[] {
  const ordered = orderPedigree(persons);
  if (marker.frequencies.length !== marker.alleles.length) throw new PedigreeError('Each allele of the marker needs its frequency.');
  for (const m of [marker.female, marker.male]) {
    if (m.alleles.length !== marker.alleles.length || m.alleles.some((a, i) => a !== marker.alleles[i])) throw new PedigreeError('The mutation matrices must be over the marker\'s alleles, in the same order.');
  }
  const known = new Set(marker.alleles);
  const inPedigree = new Set(ordered.map((p) => p.id));
  for (const [id, genotype] of typed) {
    const unknown = genotype.find((a) => !known.has(a));
    if (unknown !== undefined) throw new PedigreeError(`Allele ${unknown} of ${id} has no frequency at this marker.`);
    if (!inPedigree.has(id)) throw new PedigreeError(`${id} is typed but not in the pedigree.`);
    if (genotype.length < 1 || genotype.length > 2) throw new PedigreeError(`${id} needs one or two alleles at a marker for a pedigree (${genotype.length} given).`);
  }
  return ordered;
}

/**
 * Founders' alleles drawn from the frequencies, each child's allele from a parent through the parent's sex's matrix,
 * typed persons' alleles restricted to their genotype; persons neither typed, nor `target`, nor with such a
 * descendant are left out (their alleles sum out to 1).
 */
function pedigreeFactors(ordered: readonly PedigreePerson[], typed: ReadonlyMap<string, readonly string[]>, marker: PedigreeMarker, target?: string): PedigreeFactors {
  const n = marker.alleles.length;
  const alleleIndex = new Map(marker.alleles.map((a, i) => [a, i]));
  const needed = new Set<string>();
  for (const p of [...ordered].reverse()) {
    if (typed.has(p.id) || p.id === target || ordered.some((c) => needed.has(c.id) && (c.father === p.id || c.mother === p.id))) needed.add(p.id);
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
        // half[x·|to| + j] = ½·M[x][to[j]]: each parent allele's half of the transmission, read once.
        const width = to.length;
        const half = new Float64Array(n * width);
        for (const x of new Set([...from1, ...from2])) for (let j = 0; j < width; j++) half[x * width + j] = 0.5 * matrix.values[x * n + to[j]!]!;
        const table = new Float64Array(from1.length * from2.length * width);
        let at = 0;
        for (const x of from1) for (const y of from2) for (let j = 0; j < width; j++) table[at++] = half[x * width + j]! + half[y * width + j]!;
        factors.push({ vars: [2 * parent, 2 * parent + 1, v], table });
      }
    }
    // A heterozygote's two alleles came one from each parent, in either order; a homozygote's domain says it all.
    if (typed.has(p.id) && domains[2 * k]!.length === 2) factors.push({ vars: [2 * k, 2 * k + 1], table: Float64Array.of(0, 1, 1, 0) });
  }
  return { factors, size: domains.map((d) => d.length), slot };
}

/**
 * P(the typed genotypes | pedigree) at one marker (GENETICS.md "Pedigrees"): founders' alleles drawn independently
 * from the frequencies (Hardy–Weinberg), each child receiving one allele from each parent, the parent's two alleles
 * equally likely and passed through the parent's sex's mutation matrix (every transmission, untyped founders' too),
 * summed exactly over every untyped person's alleles (Elston & Stewart 1971; Lauritzen & Sheehan 2003, as
 * variable elimination over ordered allele pairs). `typed` maps a person to their one or two alleles.
 */
export function pedigreeLikelihood(persons: readonly PedigreePerson[], typed: ReadonlyMap<string, readonly string[]>, given: PedigreeMarker): number {
  const ordered = checkInputs(persons, typed, given);
  const marker = lumpUntypedAlleles(given, new Set([...typed.values()].flat()));
  const { factors, size } = pedigreeFactors(ordered, typed, marker);
  return sumProduct(factors, size);
}

/**
 * The LR of every genotype an untyped person of the pedigree could have (GENETICS.md "How the search reaches memory
 * speed": per marker it depends on the candidate's genotype alone): P(typed, target = a/b | pedigree) over
 * P(typed | pedigree) · P(a/b) with the target unrelated (Hardy–Weinberg, 2·pa·pb or pa²). Returns LR(a, b) by allele
 * index of `marker.alleles`, symmetric; 0 where the relatives exclude the genotype.
 */
export function targetGenotypeLr(persons: readonly PedigreePerson[], typed: ReadonlyMap<string, readonly string[]>, target: string, marker: PedigreeMarker): (a: number, b: number) => number {
  const ordered = checkInputs(persons, typed, marker);
  if (!ordered.some((p) => p.id === target)) throw new PedigreeError(`${target} is not in the pedigree.`);
  if (typed.has(target)) throw new PedigreeError(`${target} is the person searched for, so not typed in the pedigree.`);
  const { factors, size, slot } = pedigreeFactors(ordered, typed, marker, target);
  const k = slot.get(target)!;
  const joint = marginal(factors, size, [2 * k, 2 * k + 1]);
  const n = marker.alleles.length;
  const relatives = joint.reduce((s, v) => s + v, 0);
  if (relatives === 0) throw new PedigreeError('The typed relatives\' genotypes are impossible in this pedigree at this marker.');
  const p = marker.frequencies;
  return (a, b) => (a === b ? joint[a * n + a]! / (relatives * p[a]! * p[a]!) : (joint[a * n + b]! + joint[b * n + a]!) / (relatives * 2 * p[a]! * p[b]!));
}
