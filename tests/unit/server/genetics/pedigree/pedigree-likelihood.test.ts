import { describe, expect, it } from 'vitest';
import { mutationMatrix, type MutationMatrix, type MutationModelSpec } from '../../../../../server/genetics/pedigree/mutation-model';
import { PedigreeError, type PedigreePerson } from '../../../../../server/genetics/pedigree/pedigree';
import { lumpUntypedAlleles } from '../../../../../server/genetics/pedigree/allele-lumping';
import { consistentWithoutMutation, pedigreeLikelihood, type PedigreeMarker } from '../../../../../server/genetics/pedigree/pedigree-likelihood';

const close = (actual: number, expected: number, relative = 1e-12) => expect(Math.abs(actual - expected)).toBeLessThanOrEqual(relative * Math.abs(expected));

function markerOf(alleles: string[], frequencies: number[], female: MutationModelSpec = { model: 'trivial' }, male: MutationModelSpec = female): PedigreeMarker {
  return { alleles, frequencies, female: mutationMatrix(female, alleles, frequencies), male: mutationMatrix(male, alleles, frequencies) };
}

/**
 * The likelihood by listing every assignment of every person's paternal and maternal allele (n^(2·persons)
 * terms): the definition itself, for small pedigrees.
 */
function bruteForce(persons: readonly PedigreePerson[], typed: ReadonlyMap<string, readonly string[]>, marker: PedigreeMarker): number {
  const n = marker.alleles.length;
  const index = new Map(persons.map((p, k) => [p.id, k]));
  const m = (matrix: MutationMatrix, i: number, j: number) => matrix.values[i * n + j]!;
  const pat = new Array<number>(persons.length).fill(0);
  const mat = new Array<number>(persons.length).fill(0);
  let total = 0;
  /** Whether person j's two alleles (in either order) are what j was typed with, if typed. */
  const fits = (j: number) => {
    const genotype = typed.get(persons[j]!.id);
    if (!genotype) return true;
    const observed = genotype.map((a) => marker.alleles.indexOf(a));
    const [x, y] = [observed[0]!, observed[1] ?? observed[0]!];
    return (pat[j] === x && mat[j] === y) || (pat[j] === y && mat[j] === x);
  };
  const assign = (k: number): void => {
    if (k === persons.length) {
      let product = 1;
      for (const [j, p] of persons.entries()) {
        if (p.father === undefined) product *= marker.frequencies[pat[j]!]! * marker.frequencies[mat[j]!]!;
        else {
          const f = index.get(p.father)!;
          const mo = index.get(p.mother!)!;
          product *= 0.5 * m(marker.male, pat[f]!, pat[j]!) + 0.5 * m(marker.male, mat[f]!, pat[j]!);
          product *= 0.5 * m(marker.female, pat[mo]!, mat[j]!) + 0.5 * m(marker.female, mat[mo]!, mat[j]!);
        }
      }
      total += product;
      return;
    }
    for (let a = 0; a < n; a++) {
      pat[k] = a;
      for (let b = 0; b < n; b++) {
        mat[k] = b;
        if (fits(k)) assign(k + 1);
      }
    }
  };
  assign(0);
  return total;
}

const trio = (childId = 'child'): PedigreePerson[] => [
  { id: 'father', sex: 'male' },
  { id: 'mother', sex: 'female' },
  { id: childId, sex: 'male', father: 'father', mother: 'mother' },
];
/** A child's father's parents, the child's mother, untyped unless a test types them. */
const grandparents: PedigreePerson[] = [
  { id: 'gf', sex: 'male' },
  { id: 'gm', sex: 'female' },
  { id: 'father', sex: 'male', father: 'gf', mother: 'gm' },
  { id: 'mother', sex: 'female' },
  { id: 'child', sex: 'female', father: 'father', mother: 'mother' },
];
/** Untyped parents and their children c1…ck. */
const family = (k: number): PedigreePerson[] => [
  { id: 'father', sex: 'male' },
  { id: 'mother', sex: 'female' },
  ...Array.from({ length: k }, (_, i): PedigreePerson => ({ id: `c${i + 1}`, sex: i % 2 ? 'female' : 'male', father: 'father', mother: 'mother' })),
];
const unrelated = (...ids: string[]): PedigreePerson[] => ids.map((id) => ({ id, sex: 'male' }));

const A = ['10', '11', '12', '13'];
const P = [0.1, 0.2, 0.3, 0.4];

describe('pedigree likelihood (variable elimination over ordered allele pairs)', () => {
  it('gives the Hardy–Weinberg probability of one founder: 2pq and p²', () => {
    close(pedigreeLikelihood(unrelated('x'), new Map([['x', ['11', '13']]]), markerOf(A, P)), 2 * 0.2 * 0.4);
    close(pedigreeLikelihood(unrelated('x'), new Map([['x', ['12']]]), markerOf(A, P)), 0.3 ** 2);
    close(pedigreeLikelihood(unrelated('x'), new Map([['x', ['12', '12']]]), markerOf(A, P)), 0.3 ** 2);
  });

  it('reproduces the κ formulae of GENETICS.md without mutation: parent–child PQ–PR 1/(4p), full siblings PQ–PQ (1+p+q+2pq)/(8pq)', () => {
    const marker = markerOf(A, P);
    const [p, q] = [0.2, 0.4];
    // Father 11/12, child 11/13, mother untyped: LR = 1/(4·p11).
    const duo = pedigreeLikelihood(trio(), new Map([['father', ['11', '12']], ['child', ['11', '13']]]), marker);
    const apart = pedigreeLikelihood(unrelated('father', 'child'), new Map([['father', ['11', '12']], ['child', ['11', '13']]]), marker);
    close(duo / apart, 1 / (4 * p));
    const siblings: PedigreePerson[] = [
      { id: 'f', sex: 'male' },
      { id: 'm', sex: 'female' },
      { id: 's1', sex: 'male', father: 'f', mother: 'm' },
      { id: 's2', sex: 'female', father: 'f', mother: 'm' },
    ];
    const both = new Map([['s1', ['11', '13']], ['s2', ['11', '13']]]);
    close(pedigreeLikelihood(siblings, both, marker) / pedigreeLikelihood(unrelated('s1', 's2'), both, marker), (1 + p + q + 2 * p * q) / (8 * p * q));
  });

  it('equals the brute-force sum over every untyped allele, with sex-specific mutation, on several pedigree shapes', () => {
    const marker = markerOf(A, P, { model: 'equal', rate: 0.03 }, { model: 'proportional', rate: 0.05 });
    const halfSibAndUncle: PedigreePerson[] = [
      { id: 'gf', sex: 'male' },
      { id: 'gm', sex: 'female' },
      { id: 'father', sex: 'male', father: 'gf', mother: 'gm' },
      { id: 'uncle', sex: 'male', father: 'gf', mother: 'gm' },
      { id: 'm1', sex: 'female' },
      { id: 'm2', sex: 'female' },
      { id: 'mp', sex: 'male', father: 'father', mother: 'm1' },
      { id: 'half', sex: 'male', father: 'father', mother: 'm2' },
    ];
    // Eight persons over three alleles: 3^16 assignments for the brute force.
    const small = markerOf(['10', '11', '12'], [0.2, 0.3, 0.5], { model: 'stepwise', rate: 0.02, rate2: 0, range: 0.3 }, { model: 'equal', rate: 0.04 });
    const cases: [string, PedigreePerson[], Map<string, string[]>, PedigreeMarker][] = [
      ['trio', trio(), new Map([['father', ['10', '12']], ['mother', ['11']], ['child', ['11', '13']]]), marker],
      ['grandparents', grandparents, new Map([['gf', ['10', '11']], ['gm', ['12', '13']], ['child', ['11', '13']]]), marker],
      ['half-brother and uncle', halfSibAndUncle, new Map([['uncle', ['10', '12']], ['half', ['12', '11']], ['mp', ['11']]]), small],
      ['nobody typed', trio(), new Map(), marker],
      // Untyped parents of three children (summed out in closed form) and of four (through the elimination).
      ['three children', family(3), new Map([['c1', ['10', '11']], ['c2', ['12']], ['c3', ['11', '12']]]), small],
      ['four children', family(4), new Map([['c1', ['10', '11']], ['c3', ['12']], ['c4', ['11', '12']]]), small],
    ];
    for (const [name, persons, typed, m] of cases) {
      const exact = pedigreeLikelihood(persons, typed, m);
      expect(exact, name).toBeGreaterThan(0);
      close(exact, bruteForce(persons, typed, m), 1e-12);
    }
  });

  it('merges the alleles nobody carries into one where both sexes\' models allow it, exactly; never when one sex\'s does not', () => {
    const six = ['9', '10', '11', '12', '13', '14'];
    const p6 = [0.05, 0.1, 0.15, 0.2, 0.2, 0.3];
    const typed = new Map([['father', ['10', '12']], ['child', ['12', '13']]]);
    const carried = new Set(['10', '12', '13']);
    const lumpableBoth = markerOf(six, p6, { model: 'equal', rate: 0.02 }, { model: 'proportional', rate: 0.03 });
    const lumped = lumpUntypedAlleles(lumpableBoth, carried);
    expect(lumped.alleles).toEqual(['10', '12', '13', '']);
    expect(lumped.frequencies[3]).toBeCloseTo(0.05 + 0.15 + 0.3, 15);
    close(pedigreeLikelihood(trio(), typed, lumpableBoth), bruteForce(trio(), typed, lumpableBoth), 1e-12);
    // Female lumpable, male stepwise (not): no lumping, and the likelihood is still the brute-force one.
    const mixed = markerOf(six, p6, { model: 'equal', rate: 0.02 }, { model: 'stepwise', rate: 0.03, rate2: 0, range: 0.2 });
    expect(lumpUntypedAlleles(mixed, carried)).toBe(mixed);
    close(pedigreeLikelihood(trio(), typed, mixed), bruteForce(trio(), typed, mixed), 1e-12);
  });

  it('stays exact when a marker\'s tables outgrow the first working buffer: sixty alleles, stepwise, a grandfather and grandchild by hand', () => {
    const n = 60;
    const alleles = Array.from({ length: n }, (_, i) => String(5 + i));
    const weights = alleles.map((_, i) => 1 + (i % 7));
    const total = weights.reduce((s, w) => s + w, 0);
    const p = weights.map((w) => w / total);
    const marker = markerOf(alleles, p, { model: 'stepwise', rate: 0.002, rate2: 0.0001, range: 0.2 }, { model: 'stepwise', rate: 0.005, rate2: 0.0001, range: 0.2 });
    // gf 10/12, child 11/13. An untyped founder passes allele b through a matrix M with probability q(b) = Σx p(x)·M[x][b];
    // the father passes b with Σa ½(½Mm[10][a] + ½Mm[12][a] + qf(a))·Mm[a][b] (his paternal allele from gf, his maternal from gm).
    const [female, male] = [marker.female.values, marker.male.values];
    const q = (m: Float64Array, b: number) => p.reduce((s, px, x) => s + px * m[x * n + b]!, 0);
    const [g1, g2, c1, c2] = [5, 7, 6, 8];
    const fromFather = (b: number) => {
      let sum = 0;
      for (let a = 0; a < n; a++) sum += 0.5 * (0.5 * male[g1 * n + a]! + 0.5 * male[g2 * n + a]! + q(female, a)) * male[a * n + b]!;
      return sum;
    };
    const byHand = 2 * p[g1]! * p[g2]! * (fromFather(c1) * q(female, c2) + fromFather(c2) * q(female, c1));
    close(pedigreeLikelihood(grandparents, new Map([['gf', ['10', '12']], ['child', ['11', '13']]]), marker), byHand, 1e-12);
  });

  it('tells whether the typed genotypes are possible without mutation, through untyped links', () => {
    const typed = (child: string[]) => new Map([['gf', ['12', '13']], ['gm', ['14', '15']], ['child', child]]);
    // The father passes 12, 13, 14 or 15; the untyped mother anything.
    expect(consistentWithoutMutation(grandparents, typed(['10', '12']), 20)).toBe(true);
    expect(consistentWithoutMutation(grandparents, typed(['15']), 20)).toBe(true);
    expect(consistentWithoutMutation(grandparents, typed(['10', '11']), 20)).toBe(false);
    // A trio whose child carries neither parent's allele, and one whose child does.
    expect(consistentWithoutMutation(trio(), new Map([['father', ['10', '12']], ['mother', ['11']], ['child', ['11', '13']]]), 4)).toBe(false);
    expect(consistentWithoutMutation(trio(), new Map([['father', ['10', '13']], ['mother', ['11']], ['child', ['11', '13']]]), 4)).toBe(true);
  });

  it('follows a pedigree changed in place: the same array with a new father gives the new pedigree\'s likelihood', () => {
    const marker = markerOf(A, P, { model: 'equal', rate: 0.01 });
    const persons: PedigreePerson[] = [...trio(), { id: 'other', sex: 'male' }];
    const typed = new Map([['father', ['10', '12']], ['other', ['11', '13']], ['child', ['11', '13']]]);
    const first = pedigreeLikelihood(persons, typed, marker);
    persons[2] = { ...persons[2]!, father: 'other' };
    const changed = pedigreeLikelihood(persons, typed, marker);
    close(changed, bruteForce(persons, typed, marker), 1e-12);
    expect(changed).toBeGreaterThan(first * 10);
  });

  it('does not depend on the order the persons are given in', () => {
    const marker = markerOf(A, P, { model: 'stepwise', rate: 0.01, rate2: 0.001, range: 0.5 });
    const persons = trio();
    const typed = new Map([['father', ['10', '12']], ['child', ['11', '13']]]);
    const forwards = pedigreeLikelihood(persons, typed, marker);
    close(pedigreeLikelihood([...persons].reverse(), typed, marker), forwards, 1e-14);
    close(pedigreeLikelihood([persons[2]!, persons[0]!, persons[1]!], typed, marker), forwards, 1e-14);
  });

  it('computes a duo needing a mutation by hand: child 11/13, father 10/12, untyped mother, stepwise models', () => {
    const female: MutationModelSpec = { model: 'stepwise', rate: 0.001, rate2: 0, range: 0.1 };
    const male: MutationModelSpec = { model: 'stepwise', rate: 0.004, rate2: 0, range: 0.1 };
    const marker = markerOf(A, P, female, male);
    const M = (spec: MutationMatrix, from: string, to: string) => spec.values[A.indexOf(from) * 4 + A.indexOf(to)]!;
    // The father passes 11 or 13 only by mutating one of his alleles; the mother's allele is her founder
    // alleles passed through her matrix: Σ_b p_b·M_f[b][a].
    const fatherGives = (a: string) => 0.5 * M(marker.male, '10', a) + 0.5 * M(marker.male, '12', a);
    const motherGives = (a: string) => A.reduce((s, b, i) => s + P[i]! * M(marker.female, b, a), 0);
    const expected = 2 * 0.1 * 0.3 * (fatherGives('11') * motherGives('13') + fatherGives('13') * motherGives('11'));
    const duo = pedigreeLikelihood(trio(), new Map([['father', ['10', '12']], ['child', ['11', '13']]]), marker);
    close(duo, expected, 1e-14);
    // Excluded without mutation.
    expect(pedigreeLikelihood(trio(), new Map([['father', ['10', '12']], ['child', ['11', '13']]]), markerOf(A, P))).toBe(0);
  });

  it('refuses a pedigree it cannot use, naming the person', () => {
    const marker = markerOf(A, P);
    expect(() => pedigreeLikelihood([{ id: 'c', sex: 'male', father: 'f' }], new Map(), marker)).toThrow(/c has one parent/);
    expect(() => pedigreeLikelihood([{ id: 'f', sex: 'female' }, { id: 'm', sex: 'female' }, { id: 'c', sex: 'male', father: 'f', mother: 'm' }], new Map(), marker)).toThrow(/father f must be male/);
    expect(() => pedigreeLikelihood(unrelated('x'), new Map([['y', ['10']]]), marker)).toThrow(/y is typed but not in the pedigree/);
    expect(() => pedigreeLikelihood(unrelated('x'), new Map([['x', ['10', '99']]]), marker)).toThrow(PedigreeError);
    expect(() =>
      pedigreeLikelihood(
        [
          { id: 'a', sex: 'male', father: 'b', mother: 'm' },
          { id: 'b', sex: 'male', father: 'a', mother: 'm' },
          { id: 'm', sex: 'female' },
        ],
        new Map(),
        marker,
      ),
    ).toThrow(/own ancestor/);
  });
});
