import { describe, expect, it } from 'vitest';
import { alleleFrequency } from '../../../../../server/genetics/statistics';
import { fbi2015, population } from './engine-fixtures';

// Source: NRC II (1996) rec. 4.10 — minimum allele frequency 5/(2N); GENETICS.md "Population statistics".
// Tolerance: exact arithmetic on small fractions, compared to 1e-15.
describe('alleleFrequency: the minimum allele frequency rule (NRC II 1996)', () => {
  const pop = population({ TH01: { '6': 0.2, '9.3': 0.3, '10': 0.004 } }, 100, 0.001);

  it('uses the observed frequency of a common allele', () => {
    expect(alleleFrequency(pop, 'TH01', '9.3')).toBe(0.3);
  });

  it('gives an absent allele 5/(2N): N = 100 individuals → 0.025', () => {
    expect(alleleFrequency(pop, 'TH01', '13.3')).toBeCloseTo(0.025, 15);
  });

  it('raises an allele rarer than 5/(2N) to it: 0.004 → 0.025', () => {
    expect(alleleFrequency(pop, 'TH01', '10')).toBeCloseTo(0.025, 15);
  });

  it("without N, uses the population's configured minimum", () => {
    const noN = population({ TH01: { '6': 0.2, '10': 0.0004 } }, null, 0.001);
    expect(alleleFrequency(noN, 'TH01', '7')).toBe(0.001);
    expect(alleleFrequency(noN, 'TH01', '10')).toBe(0.001);
    expect(alleleFrequency(noN, 'TH01', '6')).toBe(0.2);
  });

  it('on FBI 2015 Caucasian (404 alleles typed at TH01, N = 202): an unseen 13.3 gets 5/404', () => {
    const caucasian = fbi2015('Caucasian');
    expect(alleleFrequency(caucasian, 'TH01', '13.3')).toBeCloseTo(5 / 404, 15);
    expect(alleleFrequency(caucasian, 'TH01', '9.3')).toBeCloseTo(123 / 404, 15);
  });
});
