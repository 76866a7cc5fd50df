/** Why a minimisation stopped. */
export type StopReason = 'converged' | 'iteration limit' | 'no descent' | 'not finite at the start';

export interface Minimum {
  x: number[];
  value: number;
  iterations: number;
  evaluations: number;
  reason: StopReason;
}

const MAX_ITERATIONS = 500;
const STEP = 1e-5;
const VALUE_TOLERANCE = 1e-10;
/** A gradient this small ends the search at once. */
const ZERO_GRADIENT = 1e-6;
/** A gradient this small where a step gains nothing (or none can be taken): the minimum within the value's precision. */
const FLAT_GRADIENT = 1e-2;
const MAX_STEP = 2;

const maxAbs = (v: readonly number[]) => v.reduce((m, x) => Math.max(m, Math.abs(x)), 0);

/**
 * Minimises `f` from `x0` by BFGS (Nocedal & Wright, Numerical Optimization, 2nd ed., algorithm 6.1) with the
 * gradient `df` (called at the point `f` was last evaluated at, once its step is accepted; central differences of `f`
 * when not given) and a backtracking Armijo line search; deterministic (no randomness, fixed step sizes).
 */
export function minimize(f: (x: readonly number[]) => number, x0: readonly number[], df?: (x: readonly number[]) => number[]): Minimum {
  let evaluations = 0;
  const value = (x: readonly number[]) => {
    evaluations++;
    const v = f(x);
    return Number.isNaN(v) ? Infinity : v;
  };
  const gradient = (x: readonly number[]): number[] =>
    df ? df(x).map((d) => (Number.isFinite(d) ? d : 0)) : x.map((xi, i) => {
      const up = [...x];
      const down = [...x];
      up[i] = xi + STEP;
      down[i] = xi - STEP;
      const d = (value(up) - value(down)) / (2 * STEP);
      return Number.isFinite(d) ? d : 0;
    });
  const n = x0.length;
  const identity = (): number[][] => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
  let x = [...x0];
  let fx = value(x);
  if (!Number.isFinite(fx)) return { x, value: fx, iterations: 0, evaluations, reason: 'not finite at the start' };
  if (n === 0) return { x, value: fx, iterations: 0, evaluations, reason: 'converged' };
  let g = gradient(x);
  let h = identity();
  let reset = false;
  for (let iteration = 1; iteration <= MAX_ITERATIONS; iteration++) {
    if (maxAbs(g) < ZERO_GRADIENT) return { x, value: fx, iterations: iteration - 1, evaluations, reason: 'converged' };
    let d = h.map((row) => -row.reduce((s, hij, j) => s + hij * g[j]!, 0));
    let slope = d.reduce((s, di, i) => s + di * g[i]!, 0);
    if (slope >= 0) {
      h = identity();
      d = g.map((gi) => -gi);
      slope = -g.reduce((s, gi) => s + gi * gi, 0);
    }
    let t = Math.min(1, MAX_STEP / Math.max(maxAbs(d), 1e-300));
    let next: number[] | null = null;
    let fNext = Infinity;
    for (let tries = 0; tries < 60; tries++, t /= 2) {
      const candidate = x.map((xi, i) => xi + t * d[i]!);
      const fc = value(candidate);
      // Strictly lower too: where t·slope is below the value's last digit the Armijo test alone accepts a step that
      // gains nothing, and a search stalled on a ridge would repeat it until the iteration limit.
      if (Number.isFinite(fc) && fc < fx && fc <= fx + 1e-4 * t * slope) {
        next = candidate;
        fNext = fc;
        break;
      }
    }
    if (!next) {
      if (maxAbs(g) < FLAT_GRADIENT) return { x, value: fx, iterations: iteration, evaluations, reason: 'converged' };
      if (reset) return { x, value: fx, iterations: iteration, evaluations, reason: 'no descent' };
      reset = true;
      h = identity();
      continue;
    }
    reset = false;
    const gNext = gradient(next);
    const s = next.map((v, i) => v - x[i]!);
    const y = gNext.map((v, i) => v - g[i]!);
    const sy = s.reduce((acc, si, i) => acc + si * y[i]!, 0);
    if (sy > 1e-12) {
      // H ← (I − ρsyᵀ) H (I − ρysᵀ) + ρssᵀ
      const rho = 1 / sy;
      const hy = h.map((row) => row.reduce((acc, hij, j) => acc + hij * y[j]!, 0));
      const yhy = y.reduce((acc, yi, i) => acc + yi * hy[i]!, 0);
      h = h.map((row, i) => row.map((hij, j) => hij - rho * (hy[i]! * s[j]! + s[i]! * hy[j]!) + (rho * rho * yhy + rho) * s[i]! * s[j]!));
    }
    const improvement = fx - fNext;
    x = next;
    fx = fNext;
    g = gNext;
    if (improvement < VALUE_TOLERANCE * (1 + Math.abs(fx)) && maxAbs(g) < FLAT_GRADIENT) return { x, value: fx, iterations: iteration, evaluations, reason: 'converged' };
  }
  return { x, value: fx, iterations: MAX_ITERATIONS, evaluations, reason: 'iteration limit' };
}
