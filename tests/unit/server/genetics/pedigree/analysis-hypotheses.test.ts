/**
 * Issue 16: an analysis's pedigree becomes two hypotheses over its roles, and a pedigree run over profiles skips
 * exactly the markers the calculator cannot weigh, saying why.
 */
import { describe, expect, it } from 'vitest';
import { evaluatePedigree, modelsFor } from '../../../../../server/genetics/evaluate-pedigree';
import { analysisHypotheses, pedigreeLr, targetUnrelated, type PedigreePerson } from '../../../../../server/genetics/pedigree';
import type { PopulationFrequencies } from '../../../../../server/genetics/types';

const wifeAndChildren: PedigreePerson[] = [
  { id: 'MP', sex: 'male' },
  { id: 'Wife', sex: 'female' },
  { id: 'Child 1', sex: 'female', father: 'MP', mother: 'Wife' },
  { id: 'Child 2', sex: 'male', father: 'MP', mother: 'Wife' },
];
const population: PopulationFrequencies = {
  name: 'four alleles',
  minimumAlleleFrequency: 0.001,
  markers: new Map(['D1', 'D2', 'D3'].map((m) => [m, { sampleSize: null, frequencies: new Map([['10', 0.1], ['11', 0.2], ['12', 0.3], ['13', 0.4]]) }])),
};

describe('the hypotheses of a pedigree analysis', () => {
  it('sets the tested person apart; an unknown man of his sex takes his place as the children\'s father', () => {
    expect(targetUnrelated(wifeAndChildren, 'MP')).toEqual([
      { id: 'MP', sex: 'male' },
      { id: 'Wife', sex: 'female' },
      { id: 'Child 1', sex: 'female', father: 'Unknown father (H2)', mother: 'Wife' },
      { id: 'Child 2', sex: 'male', father: 'Unknown father (H2)', mother: 'Wife' },
      { id: 'Unknown father (H2)', sex: 'male' },
    ]);
    const { h1, h2, target } = analysisHypotheses({ persons: wifeAndChildren, target: 'MP', alternative: null }, ['MP', 'Wife', 'Child 1', 'Child 2']);
    expect([h1, target]).toEqual([wifeAndChildren, 'MP']);
    expect(h2).toHaveLength(5);
  });

  it('makes a typed person with no typed relative left under H2 a founder (forrel, Familias): a mutation duo by brute force', () => {
    const duo: PedigreePerson[] = [
      { id: 'AF', sex: 'male' },
      { id: 'Mother', sex: 'female' },
      { id: 'Child', sex: 'male', father: 'AF', mother: 'Mother' },
    ];
    const { h1, h2 } = analysisHypotheses({ persons: duo, target: 'AF', alternative: null }, ['AF', 'Child']);
    expect(h1).toEqual(duo);
    expect(h2.find((p) => p.id === 'Child')).toEqual({ id: 'Child', sex: 'male' });
    // With a typed mother the child keeps its family under H2: only the alleged father is set apart.
    const trio = analysisHypotheses({ persons: duo, target: 'AF', alternative: null }, ['AF', 'Mother', 'Child']).h2;
    expect(trio.find((p) => p.id === 'Child')).toEqual({ id: 'Child', sex: 'male', father: 'Unknown father (H2)', mother: 'Mother' });

    // AF 10/11, child 12/13: one allele needs a mutation. Equal models over the four alleles, μ 0.002 male, 0.001 female.
    const [male, female] = [0.002, 0.001];
    const p = [0.1, 0.2, 0.3, 0.4];
    const M = (rate: number) => (from: number, to: number) => (from === to ? 1 - rate : rate / 3);
    const fromFather = (x: number) => 0.5 * (M(male)(0, x) + M(male)(1, x));
    // The untyped mother's genotype summed over, each of her alleles passed through the female matrix.
    const fromMother = (x: number) => p.reduce((s, pa, a) => s + p.reduce((t, pb, b) => t + pa * pb * 0.5 * (M(female)(a, x) + M(female)(b, x)), 0), 0);
    const childGivenFather = fromFather(2) * fromMother(3) + fromFather(3) * fromMother(2);
    const forrel = childGivenFather / (2 * p[2]! * p[3]!);
    const genotypes = new Map([['D1', new Map([['AF', ['10', '11']], ['Child', ['12', '13']]])]]);
    const result = pedigreeLr(h1, h2, genotypes, population, { female: { model: 'equal', rate: female }, male: { model: 'equal', rate: male } });
    expect(result.markers[0]!.verdict).toBe('needs a mutation');
    expect(Math.abs(result.lr - forrel) / forrel).toBeLessThan(1e-12);
    expect(Math.abs(result.markers[0]!.likelihoodH2 - 2 * 0.1 * 0.2 * 2 * 0.3 * 0.4) / result.markers[0]!.likelihoodH2).toBeLessThan(1e-12);
  });

  it('refuses what cannot be weighed, naming it', () => {
    const spec = (target: string, alternative: PedigreePerson[] | null = null) => ({ persons: wifeAndChildren, target, alternative });
    expect(() => analysisHypotheses(spec('Nobody'), ['MP'])).toThrow(/tested person Nobody must be one of the roles/);
    expect(() => analysisHypotheses(spec('MP'), ['MP', 'Aunt'])).toThrow(/role Aunt is not a person of the pedigree/);
    expect(() => analysisHypotheses(spec('MP', [{ id: 'MP', sex: 'male' }]), ['MP', 'Wife'])).toThrow(/role Wife is not a person of H2/);
    expect(() => analysisHypotheses(spec('MP'), ['MP', 'MP'])).toThrow(/Each role names a different person/);
    expect(() => targetUnrelated([...wifeAndChildren, { id: 'Unknown father (H2)', sex: 'male' }], 'MP')).toThrow(/Rename Unknown father \(H2\)/);
    expect(() => targetUnrelated(wifeAndChildren, 'Ghost')).toThrow(/not in the pedigree/);
  });

  it('runs over profiles: the LR of each weighable marker, the product, and why any other is left out', () => {
    const hypotheses = analysisHypotheses({ persons: wifeAndChildren, target: 'MP', alternative: null }, ['MP', 'Wife', 'Child 1']);
    const roles = ['MP', 'Wife', 'Child 1'];
    const mp = new Map([['D1', ['10', '11']], ['D2', ['12']], ['D3', ['10', '13']], ['D4', ['9', '10']], ['AMEL', ['X', 'Y']]]);
    const wife = new Map([['D1', ['12', '13']], ['D2', ['12', '13']], ['D3', ['OL']], ['D4', ['9']]]);
    const child = new Map([['D1', ['11', '12']], ['D2', ['11', '13']]]);
    const models = modelsFor({ female: { model: 'stepwise', rate: 0.001, rate2: 0, range: 0.1 }, male: { model: 'stepwise', rate: 0.003, rate2: 0, range: 0.1 }, markers: [] });
    const result = evaluatePedigree(hypotheses, roles, [mp, wife, child], population, models, [...mp.keys()]);
    expect(result.markers.map((m) => [m.marker, m.notEvaluated])).toEqual([
      ['D1', null],
      ['D2', null],
      ['D3', 'Wife: lab marking OL is not comparable'],
      ['D4', 'no allele frequencies for D4 in four alleles'],
      ['AMEL', 'not typed in Wife or Child 1'],
    ]);
    // D2: the child's 11 came from neither the missing person (12) nor the wife's 13 … 12/13 gives 13: a paternal step 12 → 11.
    expect(result.markersNeedingMutation).toEqual(['D2']);
    const typedAt = (m: string) => new Map([['MP', mp.get(m)!], ['Wife', wife.get(m)!], ['Child 1', child.get(m)!]]);
    const direct = pedigreeLr(hypotheses.h1, hypotheses.h2, new Map(['D1', 'D2'].map((m) => [m, typedAt(m)] as const)), population, models);
    expect(Math.abs(result.combinedIndex! - direct.lr) / direct.lr).toBeLessThan(1e-12);
    // A marker typed in the missing person alone says nothing.
    const alone = evaluatePedigree(hypotheses, roles, [mp, new Map(), new Map()], population, models, ['D1']);
    expect(alone.markers[0]!.notEvaluated).toBe('not typed in Wife or Child 1');
    expect(alone.combinedIndex).toBeNull();
  });
});
