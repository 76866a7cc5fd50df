import { describe, expect, it } from 'vitest';
import { mutationMatrix, PedigreeError, pedigreeLikelihood, targetGenotypeLr, type PedigreeMarker, type PedigreePerson } from '../../../../../server/genetics/pedigree';

const ALLELES = ['9', '10', '11', '12', '13'];
const P = [0.1, 0.15, 0.2, 0.25, 0.3];
const marker: PedigreeMarker = {
  alleles: ALLELES,
  frequencies: P,
  female: mutationMatrix({ model: 'stepwise', rate: 0.002, rate2: 0, range: 0.3 }, ALLELES, P),
  male: mutationMatrix({ model: 'stepwise', rate: 0.005, rate2: 0, range: 0.3 }, ALLELES, P),
};

// The missing person (MP) with a typed paternal uncle and a typed child (the child's mother untyped).
const family: PedigreePerson[] = [
  { id: 'gf', sex: 'male' },
  { id: 'gm', sex: 'female' },
  { id: 'MP', sex: 'male', father: 'gf', mother: 'gm' },
  { id: 'uncle', sex: 'male', father: 'gf', mother: 'gm' },
  { id: 'wife', sex: 'female' },
  { id: 'child', sex: 'female', father: 'MP', mother: 'wife' },
];
// H2: the remains are someone else: the family as it is (MP untyped, still the child's father) and the remains unrelated.
const apart: PedigreePerson[] = [...family, { id: 'remains', sex: 'male' }];
const relatives = new Map([['uncle', ['10', '12']], ['child', ['11', '12']]]);

describe('the LR of every genotype of the person searched for (one table per marker)', () => {
  it('equals the pedigree LR of the family with that genotype typed against the person unrelated, for every genotype', () => {
    const lr = targetGenotypeLr(family, relatives, 'MP', marker);
    for (let a = 0; a < ALLELES.length; a++) {
      for (let b = a; b < ALLELES.length; b++) {
        const genotype = a === b ? [ALLELES[a]!] : [ALLELES[a]!, ALLELES[b]!];
        const expected = pedigreeLikelihood(family, new Map([...relatives, ['MP', genotype]]), marker) / pedigreeLikelihood(apart, new Map([...relatives, ['remains', genotype]]), marker);
        expect(Math.abs(lr(a, b) - expected), `${ALLELES[a]}/${ALLELES[b]}`).toBeLessThanOrEqual(1e-12 * expected);
        expect(lr(b, a)).toBe(lr(a, b));
      }
    }
  });

  it('averages to 1 over genotypes drawn from the population (E[LR | H2] = 1)', () => {
    const lr = targetGenotypeLr(family, relatives, 'MP', marker);
    let mean = 0;
    for (let a = 0; a < ALLELES.length; a++) for (let b = a; b < ALLELES.length; b++) mean += lr(a, b) * (a === b ? P[a]! ** 2 : 2 * P[a]! * P[b]!);
    expect(mean).toBeCloseTo(1, 13);
  });

  it('refuses a typed target and a target outside the pedigree', () => {
    expect(() => targetGenotypeLr(family, new Map([...relatives, ['MP', ['10']]]), 'MP', marker)).toThrow(/MP is the person searched for/);
    expect(() => targetGenotypeLr(family, relatives, 'nobody', marker)).toThrow(PedigreeError);
  });
});
