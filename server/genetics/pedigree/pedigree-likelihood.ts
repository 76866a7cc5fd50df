import { LUMP, lumpUntypedAlleles } from './allele-lumping';
import { founderSummedOut, MAX_SUMMED_CHILDREN, type Transmission } from './founder-summed-out';
import type { PedigreeMarker } from './pedigree-marker';
import { orderPedigree, PedigreeError, type PedigreePerson } from './pedigree';
import { packed } from './packed-array';
import { marginal, resetScratch, scratchTable, sumProduct, type Factor } from './variable-elimination';

export type { PedigreeMarker } from './pedigree-marker';

/**
 * The factors of a pedigree at one marker. A founder is one variable over unordered genotypes (its alleles' order
 * means nothing: half the states of an ordered pair, and its children's factors shrink alike); anyone with parents is
 * two, the allele from the father and the allele from the mother. `states` lists each variable's values as allele
 * index pairs (a founder's genotype; [a, a] for one allele of a non-founder).
 */
interface PedigreeFactors {
  factors: Factor[];
  size: number[];
  /** Each planned person's variables: [genotype] for a founder, [from father, from mother] otherwise. */
  vars: number[][];
  states: [number, number][][];
}

/**
 * Who takes part in a pedigree's likelihood, parents first: the typed persons, `target`, and their ancestors (anyone
 * else sums out to 1). The same for every marker with the same typed persons, so made once per pedigree and set.
 */
interface PedigreePlan {
  persons: { id: string; father: number; mother: number }[];
  /** The target's place in `persons`, or -1. */
  target: number;
  /** A planned person's place in `persons`, by id. */
  at: Map<string, number>;
}

/**
 * Plans by the pedigree as written (every person's id, sex and parents), the target and the typed persons: the
 * markers of one LR, and the searches of one family, ask again and again. The key is the pedigree's content, not
 * the array, so a changed pedigree is planned anew.
 */
const PLANS = new Map<string, PedigreePlan>();
const PLANS_KEPT = 256;

function planOf(persons: readonly PedigreePerson[], typed: ReadonlyMap<string, readonly string[]>, target?: string): PedigreePlan {
  let key = `${target ?? ''}\u0002${[...typed.keys()].join('\u0001')}`;
  for (const p of persons) key += `\u0002${p.id}\u0001${p.sex}\u0001${p.father ?? ''}\u0001${p.mother ?? ''}`;
  let plan = PLANS.get(key);
  if (plan) return plan;
  const ordered = orderPedigree(persons);
  const needed = new Set<string>();
  for (let k = ordered.length - 1; k >= 0; k--) {
    const person = ordered[k]!;
    if (typed.has(person.id) || person.id === target || ordered.some((c) => needed.has(c.id) && (c.father === person.id || c.mother === person.id))) needed.add(person.id);
  }
  const at = new Map<string, number>();
  const planned: PedigreePlan['persons'] = [];
  for (const person of ordered) {
    if (!needed.has(person.id)) continue;
    at.set(person.id, planned.length);
    planned.push({ id: person.id, father: person.father === undefined ? -1 : at.get(person.father)!, mother: person.mother === undefined ? -1 : at.get(person.mother)! });
  }
  for (const id of typed.keys()) if (!at.has(id)) throw new PedigreeError(`${id} is typed but not in the pedigree.`);
  plan = { persons: planned, at, target: target === undefined ? -1 : (at.get(target) ?? -1) };
  PLANS.set(key, plan);
  if (PLANS.size > PLANS_KEPT) PLANS.delete(PLANS.keys().next().value!);
  return plan;
}

/** Checks the marker and the typed persons against it. */
function checkMarker(typed: ReadonlyMap<string, readonly string[]>, marker: PedigreeMarker): void {
  const n = marker.alleles.length;
  if (marker.frequencies.length !== n) throw new PedigreeError('Each allele of the marker needs its frequency.');
  for (const m of [marker.female, marker.male]) {
    if (m.alleles !== marker.alleles && (m.alleles.length !== n || m.alleles.some((a, i) => a !== marker.alleles[i]))) throw new PedigreeError('The mutation matrices must be over the marker\'s alleles, in the same order.');
  }
  for (const [id, genotype] of typed) {
    if (genotype.length < 1 || genotype.length > 2) throw new PedigreeError(`${id} needs one or two alleles at a marker for a pedigree (${genotype.length} given).`);
    for (const a of genotype) if (!marker.alleles.includes(a)) throw new PedigreeError(`Allele ${a} of ${id} has no frequency at this marker.`);
  }
}

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
  if (!singles) ALL_SINGLES.set(n, (singles = packed(n, (a): [number, number] => [a, a])));
  return singles;
}

/** 0 … n − 1, made once per n. */
const ALL_ALLELES = new Map<number, number[]>();
function allAlleles(n: number): number[] {
  let alleles = ALL_ALLELES.get(n);
  if (!alleles) ALL_ALLELES.set(n, (alleles = packed(n, (a) => a)));
  return alleles;
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

/** half[x·width + j] = ½·M[x][to[j]]: each parent allele's half of a transmission to the child's alleles `to`, read once. */
function halves(n: number, matrix: Float64Array, to: readonly number[]): Float64Array {
  const width = to.length;
  const half = scratchTable(n * width);
  for (let x = 0; x < n; x++) for (let j = 0; j < width; j++) half[x * width + j] = 0.5 * matrix[x * n + to[j]!]!;
  return half;
}

/** The table of a founder's genotype (x, y) passing one allele to a child: ½M[x][a] + ½M[y][a], over the child's alleles `to`. */
function fromFounder(pairs: Int32Array, n: number, matrix: Float64Array, to: readonly number[]): Float64Array {
  const width = to.length;
  const half = halves(n, matrix, to);
  const table = scratchTable((pairs.length >> 1) * width);
  let at = 0;
  // Indexed loops, not destructuring: these tables are the bulk of a pedigree's set-up.
  for (let s = 0; s < pairs.length; s += 2) {
    const x = pairs[s]! * width;
    const y = pairs[s + 1]! * width;
    for (let j = 0; j < width; j++) table[at++] = half[x + j]! + half[y + j]!;
  }
  return table;
}

/**
 * Founders' alleles drawn from the frequencies, each child's allele from a parent through the parent's sex's matrix,
 * typed persons' alleles restricted to their genotype; only the plan's persons take part (the others sum out to 1).
 */
function pedigreeFactors(plan: PedigreePlan, typed: ReadonlyMap<string, readonly string[]>, marker: PedigreeMarker): PedigreeFactors {
  const n = marker.alleles.length;
  const p = marker.frequencies;
  const vars: number[][] = [];
  const states: [number, number][][] = [];
  const factors: Factor[] = [];
  const every = allAlleles(n);
  // Untyped founders other than the target: their children's transmissions, summed out in closed form at the end.
  const summed = new Map<number, Transmission[]>();
  const hardyWeinbergFactor = (v: number) => {
    const values = states[v]!;
    const table = scratchTable(values.length);
    for (let s = 0; s < values.length; s++) table[s] = hardyWeinberg(p, values[s]![0], values[s]![1]);
    factors.push({ vars: [v], table });
  };
  for (let k = 0; k < plan.persons.length; k++) {
    const person = plan.persons[k]!;
    const given = typed.get(person.id);
    const genotype = given && packed(given.length, (i) => marker.alleles.indexOf(given[i]!));
    if (person.father < 0) {
      // Founder: Hardy–Weinberg over its unordered genotypes (just the typed one when typed).
      const [a, b] = genotype ? [Math.min(genotype[0]!, genotype.at(-1)!), Math.max(genotype[0]!, genotype.at(-1)!)] : [-1, -1];
      const v = states.push(genotype ? [[a, b]] : allPairs(n)) - 1;
      vars.push([v]);
      if (!genotype && k !== plan.target) summed.set(v, []);
      else hardyWeinbergFactor(v);
      continue;
    }
    const domain = genotype ? (genotype.length === 2 && genotype[0] !== genotype[1] ? genotype : [genotype[0]!]) : every;
    const singles = genotype ? packed(domain.length, (i): [number, number] => [domain[i]!, domain[i]!]) : allSingles(n);
    const own = [states.push(singles) - 1, states.push(singles) - 1];
    vars.push(own);
    for (let side = 0; side < 2; side++) {
      const from = vars[side === 0 ? person.father : person.mother]!;
      const matrix = (side === 0 ? marker.male : marker.female).values;
      const v = own[side]!;
      const to = domain;
      const width = to.length;
      if (from.length === 1) {
        const children = summed.get(from[0]!);
        if (children) children.push({ v, to, matrix });
        else factors.push({ vars: [from[0]!, v], table: fromFounder(flatPairs(states[from[0]!]!), n, matrix, to) });
        continue;
      }
      // From a parent's two alleles (x from the grandfather, y from the grandmother): ½M[x][a] + ½M[y][a].
      const half = halves(n, matrix, to);
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
    // A heterozygote's two alleles came one from each parent, in either order; a homozygote's domain says it all.
    if (genotype && domain.length === 2) factors.push({ vars: own, table: EITHER_ORDER });
  }
  for (const [founder, children] of summed) {
    if (children.length <= MAX_SUMMED_CHILDREN) {
      factors.push(founderSummedOut(p, n, children));
      continue;
    }
    hardyWeinbergFactor(founder);
    for (const { v, to, matrix } of children) factors.push({ vars: [founder, v], table: fromFounder(flatPairs(states[founder]!), n, matrix, to) });
  }
  return { factors, size: packed(states.length, (v) => states[v]!.length), vars, states };
}

/**
 * P(the typed genotypes | pedigree) at one marker (GENETICS.md "Pedigrees"): founders' alleles drawn independently
 * from the frequencies (Hardy–Weinberg), each child receiving one allele from each parent, the parent's two alleles
 * equally likely and passed through the parent's sex's mutation matrix (every transmission, untyped founders' too),
 * summed exactly over every untyped person's alleles (Elston & Stewart 1971; Lauritzen & Sheehan 2003, as
 * variable elimination over ordered allele pairs). `typed` maps a person to their one or two alleles.
 */
export function pedigreeLikelihood(persons: readonly PedigreePerson[], typed: ReadonlyMap<string, readonly string[]>, given: PedigreeMarker): number {
  const plan = planOf(persons, typed);
  checkMarker(typed, given);
  const carried = new Set<string>();
  for (const genotype of typed.values()) for (const a of genotype) carried.add(a);
  const marker = lumpUntypedAlleles(given, carried);
  resetScratch();
  const { factors, size } = pedigreeFactors(plan, typed, marker);
  return sumProduct(factors, size);
}

/**
 * Whether the typed genotypes are possible in the pedigree without any mutation (Mendelian consistency): the
 * likelihood (Elston & Stewart 1971) with every transmission the identity, over the typed alleles and, when the
 * marker has others, one allele standing for them, is above 0. Any positive frequencies give the same answer; equal
 * ones keep a large pedigree's product far from underflow. `markerAlleles` is how many alleles the marker has.
 */
export function consistentWithoutMutation(persons: readonly PedigreePerson[], typed: ReadonlyMap<string, readonly string[]>, markerAlleles: number): boolean {
  const carried = new Set<string>();
  for (const genotype of typed.values()) for (const a of genotype) carried.add(a);
  const alleles = [...carried];
  if (markerAlleles > carried.size) alleles.push(LUMP);
  const k = alleles.length;
  const identity = { alleles, values: identityOf(k), spec: { model: 'trivial' as const } };
  // Pushed, not filled: a filled Array is holey, and the engine's code for the frequencies would then serve two kinds.
  const frequencies: number[] = [];
  for (let i = 0; i < k; i++) frequencies.push(1 / k);
  return pedigreeLikelihood(persons, typed, { alleles, frequencies, female: identity, male: identity }) > 0;
}

/** The k × k identity, made once per k and never written to. */
const IDENTITIES = new Map<number, Float64Array>();
function identityOf(k: number): Float64Array {
  let values = IDENTITIES.get(k);
  if (!values) {
    values = new Float64Array(k * k);
    for (let i = 0; i < k; i++) values[i * k + i] = 1;
    IDENTITIES.set(k, values);
  }
  return values;
}

/**
 * P(typed, target = a/b | pedigree) for every genotype a/b of an untyped person, from one variable elimination that
 * keeps the target's alleles: `joint[a·n + b]` (a ≤ b, both orders summed) and their sum, P(typed | pedigree).
 */
export function targetJoint(persons: readonly PedigreePerson[], typed: ReadonlyMap<string, readonly string[]>, target: string, marker: PedigreeMarker): { joint: Float64Array; relatives: number } {
  const plan = planOf(persons, typed, target);
  if (!plan.at.has(target)) throw new PedigreeError(`${target} is not in the pedigree.`);
  checkMarker(typed, marker);
  if (typed.has(target)) throw new PedigreeError(`${target} is the person searched for, so not typed in the pedigree.`);
  resetScratch();
  const { factors, size, vars, states } = pedigreeFactors(plan, typed, marker);
  const own = vars[plan.at.get(target)!]!;
  const n = marker.alleles.length;
  const joint = new Float64Array(n * n);
  const table = marginal(factors, size, own);
  if (own.length === 1) {
    const pairs = states[own[0]!]!;
    for (let i = 0; i < pairs.length; i++) joint[pairs[i]![0] * n + pairs[i]![1]] = table[i]!;
  } else {
    const first = states[own[0]!]!;
    const second = states[own[1]!]!;
    for (let i = 0; i < first.length; i++) {
      const a = first[i]![0];
      for (let j = 0; j < second.length; j++) {
        const b = second[j]![0];
        joint[Math.min(a, b) * n + Math.max(a, b)]! += table[i * second.length + j]!;
      }
    }
  }
  let relatives = 0;
  for (let i = 0; i < joint.length; i++) relatives += joint[i]!;
  return { joint, relatives };
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
