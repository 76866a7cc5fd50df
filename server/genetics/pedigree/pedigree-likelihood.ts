import type { MutationMatrix } from './mutation-model';
import { orderPedigree, PedigreeError, type PedigreePerson } from './pedigree';
import { marginal, resetScratch, scratchTable, sumProduct, type Factor } from './variable-elimination';

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

/**
 * The factors of a pedigree at one marker. A founder is one variable over unordered genotypes (its alleles' order
 * means nothing: half the states of an ordered pair, and its children's factors shrink alike); anyone with parents is
 * two, the allele from the father and the allele from the mother. `states` lists each variable's values as allele
 * index pairs (a founder's genotype; [a, a] for one allele of a non-founder).
 */
interface PedigreeFactors {
  factors: Factor[];
  size: number[];
  /** A person's variables: [genotype] for a founder, [from father, from mother] otherwise. */
  vars: Map<string, number[]>;
  states: [number, number][][];
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
/** Every unordered genotype over n alleles, and every allele as [a, a]: the untyped persons' states, made once per n. */
const ALL_PAIRS = new Map<number, [number, number][]>();
const ALL_SINGLES = new Map<number, [number, number][]>();
function allPairs(n: number): [number, number][] {
  let pairs = ALL_PAIRS.get(n);
  if (!pairs) {
    pairs = [];
    for (let x = 0; x < n; x++) for (let y = x; y < n; y++) pairs.push([x, y]);
    ALL_PAIRS.set(n, pairs);
  }
  return pairs;
}
function allSingles(n: number): [number, number][] {
  let singles = ALL_SINGLES.get(n);
  if (!singles) ALL_SINGLES.set(n, (singles = Array.from({ length: n }, (_, a) => [a, a] as [number, number])));
  return singles;
}

/** A founder's states as one flat array (x0, y0, x1, y1, …), kept for the shared all-pairs lists: read per transmission. */
const FLAT = new WeakMap<readonly [number, number][], Int32Array>();
function flatPairs(states: readonly [number, number][]): Int32Array {
  let flat = FLAT.get(states);
  if (!flat) {
    flat = new Int32Array(states.length * 2);
    for (let s = 0; s < states.length; s++) {
      flat[2 * s] = states[s]![0];
      flat[2 * s + 1] = states[s]![1];
    }
    FLAT.set(states, flat);
  }
  return flat;
}

/** A heterozygote's alleles from its father and mother: either order, never both the same (read only). */
const EITHER_ORDER = Float64Array.of(0, 1, 1, 0);

function pedigreeFactors(ordered: readonly PedigreePerson[], typed: ReadonlyMap<string, readonly string[]>, marker: PedigreeMarker, target?: string): PedigreeFactors {
  const n = marker.alleles.length;
  const p = marker.frequencies;
  const alleleIndex = new Map(marker.alleles.map((a, i) => [a, i]));
  const needed = new Set<string>();
  for (const person of [...ordered].reverse()) {
    if (typed.has(person.id) || person.id === target || ordered.some((c) => needed.has(c.id) && (c.father === person.id || c.mother === person.id))) needed.add(person.id);
  }
  const vars = new Map<string, number[]>();
  const states: [number, number][][] = [];
  const factors: Factor[] = [];
  const every = marker.alleles.map((_, i) => i);
  for (const person of ordered) {
    if (!needed.has(person.id)) continue;
    const genotype = typed.get(person.id)?.map((a) => alleleIndex.get(a)!);
    if (person.father === undefined) {
      // Founder: Hardy–Weinberg over its unordered genotypes (just the typed one when typed).
      const [a, b] = genotype ? [Math.min(genotype[0]!, genotype.at(-1)!), Math.max(genotype[0]!, genotype.at(-1)!)] : [-1, -1];
      const values: [number, number][] = genotype ? [[a, b]] : allPairs(n);
      const v = states.push(values) - 1;
      vars.set(person.id, [v]);
      const table = scratchTable(values.length);
      for (let s = 0; s < values.length; s++) table[s] = hardyWeinberg(p, values[s]![0], values[s]![1]);
      factors.push({ vars: [v], table });
      continue;
    }
    const domain = genotype ? [...new Set(genotype)] : every;
    const singles = genotype ? domain.map((a) => [a, a] as [number, number]) : allSingles(n);
    const own = [states.push(singles) - 1, states.push(singles) - 1];
    vars.set(person.id, own);
    for (const [parentId, matrix, v] of [[person.father, marker.male, own[0]!], [person.mother!, marker.female, own[1]!]] as const) {
      const from = vars.get(parentId)!;
      const to = domain;
      const width = to.length;
      // half[x·width + j] = ½·M[x][to[j]]: each parent allele's half of the transmission, read once.
      const half = scratchTable(n * width);
      const parentAllele = new Uint8Array(n);
      for (const u of from) for (const pair of states[u]!) parentAllele[pair[0]] = parentAllele[pair[1]] = 1;
      for (let x = 0; x < n; x++) if (parentAllele[x]) for (let j = 0; j < width; j++) half[x * width + j] = 0.5 * matrix.values[x * n + to[j]!]!;
      // Indexed loops, not destructuring: these tables are the bulk of a pedigree's set-up.
      if (from.length === 1) {
        // From a founder's genotype (x, y): ½M[x][a] + ½M[y][a].
        const pairs = flatPairs(states[from[0]!]!);
        const table = scratchTable((pairs.length >> 1) * width);
        let at = 0;
        for (let s = 0; s < pairs.length; s += 2) {
          const x = pairs[s]! * width;
          const y = pairs[s + 1]! * width;
          for (let j = 0; j < width; j++) table[at++] = half[x + j]! + half[y + j]!;
        }
        factors.push({ vars: [from[0]!, v], table });
      } else {
        const s1 = states[from[0]!]!;
        const s2 = states[from[1]!]!;
        const table = scratchTable(s1.length * s2.length * width);
        let at = 0;
        for (let a = 0; a < s1.length; a++) {
          const x = s1[a]![0] * width;
          for (let b = 0; b < s2.length; b++) {
            const y = s2[b]![0] * width;
            for (let j = 0; j < width; j++) table[at++] = half[x + j]! + half[y + j]!;
          }
        }
        factors.push({ vars: [from[0]!, from[1]!, v], table });
      }
    }
    // A heterozygote's two alleles came one from each parent, in either order; a homozygote's domain says it all.
    if (genotype && domain.length === 2) factors.push({ vars: own, table: EITHER_ORDER });
  }
  return { factors, size: states.map((v) => v.length), vars, states };
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
  resetScratch();
  const { factors, size } = pedigreeFactors(ordered, typed, marker);
  return sumProduct(factors, size);
}

/**
 * P(typed, target = a/b | pedigree) for every genotype a/b of an untyped person, from one variable elimination that
 * keeps the target's alleles: `joint[a·n + b]` (a ≤ b, both orders summed) and their sum, P(typed | pedigree).
 */
export function targetJoint(persons: readonly PedigreePerson[], typed: ReadonlyMap<string, readonly string[]>, target: string, marker: PedigreeMarker): { joint: Float64Array; relatives: number } {
  const ordered = checkInputs(persons, typed, marker);
  if (!ordered.some((p) => p.id === target)) throw new PedigreeError(`${target} is not in the pedigree.`);
  if (typed.has(target)) throw new PedigreeError(`${target} is the person searched for, so not typed in the pedigree.`);
  resetScratch();
  const { factors, size, vars, states } = pedigreeFactors(ordered, typed, marker, target);
  const own = vars.get(target)!;
  const n = marker.alleles.length;
  const joint = new Float64Array(n * n);
  const table = marginal(factors, size, own);
  if (own.length === 1) states[own[0]!]!.forEach(([a, b], i) => (joint[a * n + b] = table[i]!));
  else {
    const [first, second] = [states[own[0]!]!, states[own[1]!]!];
    first.forEach(([a], i) => second.forEach(([b], j) => (joint[Math.min(a, b) * n + Math.max(a, b)]! += table[i * second.length + j]!)));
  }
  return { joint, relatives: joint.reduce((s, v) => s + v, 0) };
}

/** Hardy–Weinberg probability of genotype a/b by allele index (NRC II 1996 rec. 4.1): 2·pa·pb, or pa². */
export const hardyWeinberg = (p: readonly number[], a: number, b: number) => (a === b ? p[a]! * p[a]! : 2 * p[a]! * p[b]!);

/**
 * The LR of every genotype an untyped person of the pedigree could have (GENETICS.md "How the search reaches memory
 * speed": per marker it depends on the candidate's genotype alone): P(typed, target = a/b | pedigree) over
 * P(typed | pedigree) · P(a/b) with the target unrelated (Hardy–Weinberg). Returns LR(a, b) by allele index of
 * `marker.alleles`, symmetric; 0 where the relatives exclude the genotype.
 */
export function targetGenotypeLr(persons: readonly PedigreePerson[], typed: ReadonlyMap<string, readonly string[]>, target: string, marker: PedigreeMarker): (a: number, b: number) => number {
  const { joint, relatives } = targetJoint(persons, typed, target, marker);
  if (relatives === 0) throw new PedigreeError('The typed relatives\' genotypes are impossible in this pedigree at this marker.');
  const n = marker.alleles.length;
  return (a, b) => {
    const [lo, hi] = a <= b ? [a, b] : [b, a];
    return joint[lo * n + hi]! / (relatives * hardyWeinberg(marker.frequencies, lo, hi));
  };
}
