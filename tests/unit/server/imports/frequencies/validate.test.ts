import { describe, expect, it } from 'vitest';
import { validateFrequencies, type MarkerFrequencies } from '../../../../../server/imports/frequencies';

const marker = (alleles: [string, number][]): MarkerFrequencies => ({
  markerId: 'id-D3S1358',
  marker: 'D3S1358',
  sampleSize: null,
  alleles: alleles.map(([allele, frequency]) => ({ allele, frequency })),
});

describe('validateFrequencies (GENETICS.md: each in (0, 1], sum 1 ± 0.02)', () => {
  it('accepts frequencies summing to exactly 1', () => {
    expect(validateFrequencies([marker([['14', 0.25], ['15', 0.75]])])).toEqual([]);
  });

  it('accepts the tolerance edges 0.98 and 1.02 (decimal sums, despite binary rounding)', () => {
    expect(validateFrequencies([marker([['14', 0.49], ['15', 0.49]])])).toEqual([]);
    expect(validateFrequencies([marker([['14', 0.51], ['15', 0.51]])])).toEqual([]);
  });

  it('refuses 0.9799 and prints it with enough digits to show it is outside', () => {
    expect(validateFrequencies([marker([['14', 0.4899], ['15', 0.49]])])).toEqual([
      { row: null, marker: 'D3S1358', message: 'Frequencies of D3S1358 sum to 0.9799; they must sum to 1 ± 0.02' },
    ]);
  });

  it('refuses 0, negative, above 1 and NaN, and then skips the sum', () => {
    const errors = validateFrequencies([marker([['13', 0], ['14', -0.2], ['15', 1.2], ['16', Number.NaN]])]);
    expect(errors.map((e) => e.message)).toEqual([
      'Frequency 0 of allele 13 at D3S1358 is outside (0, 1]',
      'Frequency -0.2 of allele 14 at D3S1358 is outside (0, 1]',
      'Frequency 1.2 of allele 15 at D3S1358 is outside (0, 1]',
      'Frequency NaN of allele 16 at D3S1358 is outside (0, 1]',
    ]);
  });

  it('refuses an allele listed twice', () => {
    expect(validateFrequencies([marker([['14', 0.5], ['14', 0.5]])]).map((e) => e.message)).toEqual([
      'Allele 14 appears more than once for D3S1358',
    ]);
  });

  it('refuses a designation that is not an allele, and a marker without alleles', () => {
    expect(validateFrequencies([marker([['abc', 1]])]).map((e) => e.message)).toEqual(['"abc" at D3S1358 is not an allele designation']);
    expect(validateFrequencies([marker([])]).map((e) => e.message)).toEqual(['D3S1358 has no allele frequencies']);
  });
});
