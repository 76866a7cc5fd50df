import { describe, expect, it } from 'vitest';
import { logGamma, logGammaDensity, logLowerGammaRatio } from '../../../../../server/genetics/continuous/gamma-functions';

// Reference values: R 4.2.2 `pgamma(…, log.p = TRUE)`, `lgamma`, `dgamma(…, log = TRUE)`, printed to 17 digits.
const close = (actual: number, expected: number, relative: number) => expect(Math.abs(actual - expected)).toBeLessThanOrEqual(relative * Math.max(1, Math.abs(expected)));

describe('the gamma model\'s special functions (double precision)', () => {
  it('log Γ against R\'s lgamma, 2e-15 relative, and exact factorials', () => {
    const cases: [number, number][] = [[1e-8, 18.420680738180209], [0.5, 0.57236494292470008], [3.7, 1.4280723266653881], [12.3, 18.238983407092245], [1234.5, 7550.5509010778942]];
    for (const [x, expected] of cases) close(logGamma(x), expected, 2e-15);
    expect(Math.exp(logGamma(5))).toBeCloseTo(24, 12);
    expect(logGamma(0)).toBe(Infinity);
  });

  it('log P(a, x) against R\'s pgamma on both sides of x = a + 1 and in the far tail, 1e-13 relative', () => {
    const cases: [number, number, number][] = [[0.3, 50 / 180, -0.33731985020090954], [2.5, 50 / 40, -1.4983218120321848], [40, 2, -84.544804381486529], [12, 25, -0.0014169764111510632], [200, 250, -0.00048232906155588776]];
    for (const [a, x, expected] of cases) close(logLowerGammaRatio(a, x), expected, 1e-13);
    // a = 4: P = 1 − e^{−x}(1 + x + x²/2 + x³/6), the Erlang distribution.
    const x = 1.7;
    close(logLowerGammaRatio(4, x), Math.log(1 - Math.exp(-x) * (1 + x + (x * x) / 2 + (x * x * x) / 6)), 1e-14);
    // Shape 0 is the point mass at 0, as R has it: P = 1.
    expect(logLowerGammaRatio(0, 3)).toBe(0);
  });

  it('the log density against R\'s dgamma, and −∞ at shape 0', () => {
    close(logGammaDensity(700, 7.3, 90), -6.5024747834375134, 1e-14);
    expect(logGammaDensity(700, 0, 90)).toBe(-Infinity);
  });
});
