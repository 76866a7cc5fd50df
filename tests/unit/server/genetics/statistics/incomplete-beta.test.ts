import { describe, expect, it } from 'vitest';
import { betaQuantile, logGamma, regularizedIncompleteBeta } from '../../../../../server/genetics/statistics';

// Sources: closed forms of the Beta distribution, the binomial identity I_x(a, n−a+1) = P(Bin(n, x) ≥ a),
// and SciPy's beta.ppf for the quantiles (printed to 10 digits). Method: Numerical Recipes §6.1, §6.4.

/** P(Bin(n, x) ≥ a) summed term by term, an independent route to I_x(a, n − a + 1). */
function binomialUpperTail(n: number, x: number, a: number): number {
  let sum = 0;
  let coefficient = 1;
  for (let k = 0; k <= n; k++) {
    if (k >= a) sum += coefficient * x ** k * (1 - x) ** (n - k);
    coefficient = (coefficient * (n - k)) / (k + 1);
  }
  return sum;
}

describe('logGamma (Lanczos; tolerance 1e-12)', () => {
  it('ln Γ(n) = ln (n−1)! and Γ(½) = √π', () => {
    expect(logGamma(1)).toBeCloseTo(0, 12);
    expect(logGamma(5)).toBeCloseTo(Math.log(24), 12);
    expect(logGamma(11)).toBeCloseTo(Math.log(3628800), 11);
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 12);
  });
});

describe('regularizedIncompleteBeta I_x(a, b) (tolerance 1e-12)', () => {
  it('closed forms: I_x(1,1) = x, I_x(a,1) = xᵃ, I_x(1,b) = 1 − (1−x)ᵇ, I_½(a,a) = ½', () => {
    expect(regularizedIncompleteBeta(0.37, 1, 1)).toBeCloseTo(0.37, 12);
    expect(regularizedIncompleteBeta(0.6, 3, 1)).toBeCloseTo(0.216, 12);
    expect(regularizedIncompleteBeta(0.1, 1, 20)).toBeCloseTo(1 - 0.9 ** 20, 12);
    expect(regularizedIncompleteBeta(0.5, 7.5, 7.5)).toBeCloseTo(0.5, 12);
  });

  it('arcsine law: I_x(½, ½) = (2/π)·asin(√x), x = 0.2 → 0.2951672353', () => {
    expect(regularizedIncompleteBeta(0.2, 0.5, 0.5)).toBeCloseTo((2 / Math.PI) * Math.asin(Math.sqrt(0.2)), 12);
  });

  it('binomial identity: I_0.4(2, 3) = P(Bin(4, 0.4) ≥ 2) = 0.5248; I_0.3(10, 20) = P(Bin(29, 0.3) ≥ 10)', () => {
    expect(regularizedIncompleteBeta(0.4, 2, 3)).toBeCloseTo(0.5248, 12);
    expect(regularizedIncompleteBeta(0.3, 10, 20)).toBeCloseTo(binomialUpperTail(29, 0.3, 10), 12);
    expect(regularizedIncompleteBeta(0.02, 3, 998)).toBeCloseTo(binomialUpperTail(1000, 0.02, 3), 12);
  });

  it('is 0 at x ≤ 0 and 1 at x ≥ 1, and refuses a, b ≤ 0', () => {
    expect(regularizedIncompleteBeta(0, 2, 3)).toBe(0);
    expect(regularizedIncompleteBeta(1, 2, 3)).toBe(1);
    expect(() => regularizedIncompleteBeta(0.5, 0, 3)).toThrow(RangeError);
  });
});

describe('betaQuantile by bisection (tolerance 1e-9 against SciPy beta.ppf)', () => {
  it.each([
    [0.95, 2, 9, 0.3941633024],
    [0.95, 6, 95, 0.1022533776],
    [0.95, 3, 998, 0.006282284547],
  ])('beta quantile(%s; %s, %s) = %s', (prob, a, b, expected) => {
    expect(betaQuantile(prob, a, b)).toBeCloseTo(expected, 9);
  });

  it('inverts I_x: I at the quantile gives the probability back', () => {
    expect(regularizedIncompleteBeta(betaQuantile(0.3, 4, 7), 4, 7)).toBeCloseTo(0.3, 12);
  });

  it('refuses a probability outside [0, 1]', () => {
    expect(() => betaQuantile(1.5, 2, 2)).toThrow(RangeError);
  });
});
