import { describe, expect, it } from 'vitest';
import { clopperPearsonUpper, countHaplotype, haplotypeFrequency, type HaplotypeEntry } from '../../../../../server/genetics/statistics';
import { profile } from './engine-fixtures';

// Source: SWGDAM Y-STR Interpretation Guidelines (2014), counting method with the upper 95% Clopper–Pearson
// bound; Clopper & Pearson (1934). Tolerances stated per test.

/** P(Bin(n, p) ≤ x), independent of the engine's incomplete beta. */
function binomialCdf(x: number, n: number, p: number): number {
  let sum = 0;
  let coefficient = 1;
  for (let k = 0; k <= x; k++) {
    sum += coefficient * p ** k * (1 - p) ** (n - k);
    coefficient = (coefficient * (n - k)) / (k + 1);
  }
  return sum;
}

describe('clopperPearsonUpper, one-sided 95% (SWGDAM 2014)', () => {
  it('x = 0: 1 − 0.05^(1/N); N = 1000 → 0.0029912495 (tolerance 1e-12)', () => {
    expect(clopperPearsonUpper(0, 1000)).toBeCloseTo(1 - 0.05 ** (1 / 1000), 12);
    expect(clopperPearsonUpper(0, 1000)).toBeCloseTo(0.0029912495, 10);
  });

  it('x = 1 of N = 10 → 0.3941633 and x = 5 of N = 100 → 0.1022534 (SciPy beta.ppf; tolerance 1e-9)', () => {
    expect(clopperPearsonUpper(1, 10)).toBeCloseTo(0.3941633024, 9);
    expect(clopperPearsonUpper(5, 100)).toBeCloseTo(0.1022533776, 9);
  });

  it('defines the bound: P(Bin(N, upper) ≤ x) = 5% (tolerance 1e-10)', () => {
    for (const [x, n] of [[1, 10], [3, 250], [12, 3000]] as const) {
      expect(binomialCdf(x, n, clopperPearsonUpper(x, n))).toBeCloseTo(0.05, 10);
    }
  });

  it('x = N gives 1; impossible counts are refused', () => {
    expect(clopperPearsonUpper(4, 4)).toBe(1);
    expect(() => clopperPearsonUpper(5, 4)).toThrow(RangeError);
    expect(() => clopperPearsonUpper(0, 0)).toThrow(RangeError);
    expect(() => clopperPearsonUpper(1.5, 4)).toThrow(RangeError);
  });
});

describe('haplotypeFrequency: bound, θ and LR (SWGDAM 2014)', () => {
  it('x = 0 of N = 1000: frequency 0.0029912, LR = 1/frequency = 334.31 (tolerance 1e-9)', () => {
    const f = haplotypeFrequency({ matches: 0, total: 1000 });
    expect(f.frequency).toBeCloseTo(1 - 0.05 ** 0.001, 12);
    expect(f.likelihoodRatio).toBeCloseTo(1 / (1 - 0.05 ** 0.001), 9);
  });

  it('θ correction θ + (1 − θ)·p: θ = 0.0005 on x = 0 of N = 1000', () => {
    const p = 1 - 0.05 ** 0.001;
    const f = haplotypeFrequency({ matches: 0, total: 1000 }, { theta: 0.0005 });
    expect(f.upperBound).toBeCloseTo(p, 12);
    expect(f.frequency).toBeCloseTo(0.0005 + 0.9995 * p, 12);
    expect(f.likelihoodRatio).toBeCloseTo(1 / (0.0005 + 0.9995 * p), 9);
  });
});

describe('countHaplotype: x among N (SWGDAM 2014; multi-copy markers as sets)', () => {
  const query = profile({ DYS19: ['14'], DYS385: ['11', '14'], DYS390: ['24'], DYS391: ['OL'] });
  const table: HaplotypeEntry[] = [
    { values: profile({ DYS19: ['14'], DYS385: ['14', '11'], DYS390: ['24'], DYS391: ['10'] }), count: 2 },
    { values: profile({ DYS19: ['14'], DYS385: ['11', '14'], DYS390: ['24'] }), count: 1 },
    { values: profile({ DYS19: ['15'], DYS385: ['11', '14'], DYS390: ['24'] }), count: 5 },
    { values: profile({ DYS19: ['14'], DYS385: ['11'], DYS390: ['24'] }), count: 1 },
    { values: profile({ DYS19: ['14'], DYS390: ['24'] }), count: 3 },
  ];

  it('counts set-equal haplotypes at the query’s comparable markers and leaves incomparable ones out of N', () => {
    expect(countHaplotype(query, table)).toEqual({ matches: 3, total: 9, markers: ['DYS19', 'DYS385', 'DYS390'], notComparable: 3 });
  });

  it('feeds the bound: 3 of 9 → the 95% quantile of Beta(4, 6), with P(Bin(9, f) ≤ 3) = 5%', () => {
    const f = haplotypeFrequency(countHaplotype(query, table));
    expect(binomialCdf(3, 9, f.frequency)).toBeCloseTo(0.05, 10);
  });
});
