import { describe, expect, it } from 'vitest';
import { detachedPerson, mutationMatrix, pedigreeLikelihood, pedigreeLr, pedigreeMarkerAlleles, type PedigreePerson } from '../../../../../server/genetics/pedigree';
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

  it('adds a typed allele the population lacks at the minimum allele frequency, the founders\' frequencies then summing to 1', () => {
    const genotypes = new Map([['D1', new Map([['mother', ['10', '14']], ['sister', ['14', '12']], ['mp', ['11', '14']]])]]);
    const result = pedigreeLr(family, apart, genotypes, population, { female: { model: 'trivial' }, male: { model: 'trivial' } });
    expect(result.markers[0]!.alleles).toEqual(['10', '11', '12', '13', '14']);
    expect(result.markers[0]!.frequencies).toEqual([0.1, 0.2, 0.3, 0.4, 0.001].map((f) => f / 1.001));
  });

  it('gives the same likelihoods pruned or not when the table does not sum to 1 (an allele added at the minimum)', () => {
    // A half-sibling's other parent is needed only while the sibling is: with Σp ≠ 1 it would weigh Σp² in one
    // computation and nothing in the other, unless the founders' frequencies are scaled to sum to 1.
    const half: PedigreePerson[] = [
      { id: 'f', sex: 'male' },
      { id: 'm1', sex: 'female' },
      { id: 'm2', sex: 'female' },
      { id: 'a', sex: 'male', father: 'f', mother: 'm1' },
      { id: 'b', sex: 'male', father: 'f', mother: 'm2' },
    ];
    const setApart: PedigreePerson[] = [...half.filter((p) => p.id !== 'b'), { id: 'b', sex: 'male' }];
    const models = { female: { model: 'stepwise', rate: 0.002, rate2: 0.0001, range: 0.2 }, male: { model: 'stepwise', rate: 0.004, rate2: 0.0001, range: 0.2 } } as const;
    const typed = new Map([['a', ['10', '14']], ['b', ['14', '12']]]);
    const [m] = pedigreeLr(half, setApart, new Map([['D1', typed]]), population, models).markers;
    const { alleles, frequencies } = pedigreeMarkerAlleles(population, 'D1', ['10', '14', '12']);
    const built = { alleles, frequencies, female: mutationMatrix(models.female, alleles, frequencies), male: mutationMatrix(models.male, alleles, frequencies) };
    expect(Math.abs(m!.likelihoodH1 - pedigreeLikelihood(half, typed, built)) / m!.likelihoodH1).toBeLessThan(1e-12);
    expect(Math.abs(m!.likelihoodH2 - pedigreeLikelihood(setApart, typed, built)) / m!.likelihoodH2).toBeLessThan(1e-12);
  });

  it('computes H2 = the family with the missing person set apart in one elimination, equal to computing it in full', () => {
    const setApart: PedigreePerson[] = [...family.filter((p) => p.id !== 'mp'), { id: 'mp', sex: 'male' }];
    const typedIds = new Set(['mother', 'sister', 'mp']);
    expect(detachedPerson(family, setApart, typedIds)).toBe('mp');
    // Not when H2 changes more, when the person is someone's parent, or when the person is not typed.
    expect(detachedPerson(family, apart, typedIds)).toBeUndefined();
    expect(detachedPerson([...family, { id: 'kid', sex: 'male', father: 'mp', mother: 'mother' }], [...setApart, { id: 'kid', sex: 'male', father: 'mp', mother: 'mother' }], typedIds)).toBeUndefined();
    expect(detachedPerson(family, setApart, new Set(['mother', 'sister']))).toBeUndefined();
    const models = { female: { model: 'stepwise', rate: 0.002, rate2: 0.0001, range: 0.2 }, male: { model: 'stepwise', rate: 0.004, rate2: 0.0001, range: 0.2 } } as const;
    const genotypes = new Map([
      ['D1', new Map([['mother', ['10', '11']], ['sister', ['10', '12']], ['mp', ['11', '13']]])],
      ['D2', new Map([['mother', ['7']], ['sister', ['7', '8']], ['mp', ['8']]])],
    ]);
    const result = pedigreeLr(family, setApart, genotypes, population, models);
    for (const m of result.markers) {
      const typed = genotypes.get(m.marker)!;
      const { alleles, frequencies } = pedigreeMarkerAlleles(population, m.marker, [...typed.values()].flat());
      const built = { alleles, frequencies, female: mutationMatrix(models.female, alleles, frequencies), male: mutationMatrix(models.male, alleles, frequencies) };
      expect(Math.abs(m.likelihoodH1 - pedigreeLikelihood(family, typed, built)) / m.likelihoodH1, m.marker).toBeLessThan(1e-12);
      expect(Math.abs(m.likelihoodH2 - pedigreeLikelihood(setApart, typed, built)) / m.likelihoodH2, m.marker).toBeLessThan(1e-12);
    }
  });

  it('refuses a typed person missing from a hypothesis', () => {
    const genotypes = new Map([['D1', new Map([['brother', ['10', '11']]])]]);
    expect(() => pedigreeLr(family, apart, genotypes, population, { female: { model: 'trivial' }, male: { model: 'trivial' } })).toThrow(/brother is typed but missing from H1/);
  });
});
