import { describe, expect, it } from 'vitest';
import { minimize } from '../../../../../server/genetics/continuous/quasi-newton';

describe('the BFGS minimiser', () => {
  it('finds the minimum of a quadratic bowl: f = (x − 3)² + 10 (y + 1)², at (3, −1)', () => {
    const m = minimize(([x, y]) => (x! - 3) ** 2 + 10 * (y! + 1) ** 2, [0, 0], ([x, y]) => [2 * (x! - 3), 20 * (y! + 1)]);
    expect(m.reason).toBe('converged');
    expect(m.x[0]).toBeCloseTo(3, 6);
    expect(m.x[1]).toBeCloseTo(-1, 6);
  });

  it('stops, saying no step improves, where the slope is real but no step changes the value in double precision (instead of accepting steps that gain nothing up to the iteration limit)', () => {
    // f = 10^20 + x: the slope is 1 everywhere, but 10^20 + x rounds to 10^20 for every x the search reaches, so the
    // Armijo test f(x + td) ≤ f(x) + 10⁻⁴·t·slope holds with equality (its right side rounds to f(x) too) and every step
    // would be accepted, gaining nothing. The one-marker fit from one contributor fewer stalled so on its ridge to
    // σ → 0: 500 iterations of 30 evaluations each (14,332 sums of 291,852 joint genotypes), none moving the value.
    const m = minimize(([x]) => 1e20 + x!, [0], () => [1]);
    expect(m.reason).toBe('no descent');
    expect(m.iterations).toBeLessThan(5);
    expect(m.value).toBe(1e20);
  });
});
