import { describe, expect, it } from 'vitest';
import { pedigreeLr, type PedigreePerson } from '../../../../../server/genetics/pedigree';
import type { PopulationFrequencies } from '../../../../../server/genetics/types';

const population: PopulationFrequencies = {
  name: 'Test',
  minimumAlleleFrequency: 0.001,
  markers: new Map([
    ['D1', { frequencies: new Map([['10', 0.1], ['11', 0.2], ['12', 0.3], ['13', 0.4]]), sampleSize: null }],
    ['D2', { frequencies: new Map([['7', 0.5], ['8', 0.5]]), sampleSize: 100 }],
  ]),
};

// H1: the missing person (mp) is the typed mother's child and the typed sister's full sibling; H2: mp unrelated.
const family: PedigreePerson[] = [
  { id: 'father', sex: 'male' },
  { id: 'mother', sex: 'female' },
  { id: 'sister', sex: 'female', father: 'father', mother: 'mother' },
  { id: 'mp', sex: 'male', father: 'father', mother: 'mother' },
];
const apart: PedigreePerson[] = [{ id: 'mother', sex: 'female' }, { id: 'sister', sex: 'female' }, { id: 'mp', sex: 'male' }];

describe('pedigree LR over markers', () => {
  it('multiplies the per-marker ratios, says which marker needs a mutation, and shows the frequencies used', () => {
    const genotypes = new Map([
      // Consistent: mp 11/12 takes 11 from the mother 10/11, 12 from the father; the sister 10/12 shares both parents.
      ['D1', new Map([['mother', ['10', '11']], ['sister', ['10', '12']], ['mp', ['11', '12']]])],
      // The mother 7/7 cannot give mp 8/8 without a mutation.
      ['D2', new Map([['mother', ['7']], ['sister', ['7', '8']], ['mp', ['8']]])],
    ]);
    const withMutation = pedigreeLr(family, apart, genotypes, population, { female: { model: 'equal', rate: 0.001 }, male: { model: 'equal', rate: 0.002 } });
    expect(withMutation.markers.map((m) => [m.marker, m.verdict])).toEqual([['D1', 'consistent'], ['D2', 'needs a mutation']]);
    for (const m of withMutation.markers) expect(m.lr).toBeCloseTo(m.likelihoodH1 / m.likelihoodH2, 15);
    expect(withMutation.lr).toBeCloseTo(withMutation.markers[0]!.lr * withMutation.markers[1]!.lr, 12);
    expect(withMutation.log10Lr).toBeCloseTo(Math.log10(withMutation.lr), 12);
    expect(withMutation.markers[1]!.lr).toBeGreaterThan(0);
    // D2 has N = 100: its alleles are floored at 5/(2N) = 0.025 (not needed here), shown with the alleles.
    expect(withMutation.markers[1]!.alleles).toEqual(['7', '8']);
    expect(withMutation.markers[1]!.frequencies).toEqual([0.5, 0.5]);

    const without = pedigreeLr(family, apart, genotypes, population, { female: { model: 'trivial' }, male: { model: 'trivial' } });
    expect(without.markers.map((m) => m.verdict)).toEqual(['consistent', 'excluded']);
    expect(without.lr).toBe(0);
    // Mutation changes the consistent marker too, but only a little (every transmission may mutate).
    expect(withMutation.markers[0]!.lr / without.markers[0]!.lr).toBeCloseTo(1, 2);
  });

  it('adds a typed allele the population lacks at the minimum allele frequency', () => {
    const genotypes = new Map([['D1', new Map([['mother', ['10', '14']], ['sister', ['14', '12']], ['mp', ['11', '14']]])]]);
    const result = pedigreeLr(family, apart, genotypes, population, { female: { model: 'trivial' }, male: { model: 'trivial' } });
    expect(result.markers[0]!.alleles).toEqual(['10', '11', '12', '13', '14']);
    expect(result.markers[0]!.frequencies).toEqual([0.1, 0.2, 0.3, 0.4, 0.001]);
  });

  it('refuses a typed person missing from a hypothesis', () => {
    const genotypes = new Map([['D1', new Map([['brother', ['10', '11']]])]]);
    expect(() => pedigreeLr(family, apart, genotypes, population, { female: { model: 'trivial' }, male: { model: 'trivial' } })).toThrow(/brother is typed but missing from H1/);
  });
});
