// Numerics for the Clopper–Pearson bound: no statistics library, so each step is written out and
// tested against published values (Press et al., Numerical Recipes 3rd ed. §6.1, §6.4).

const LANCZOS_G = 7;
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
  -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0 by the Lanczos approximation (g = 7, n = 9; Numerical Recipes §6.1), ~15 significant digits. */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let sum = LANCZOS[0]!;
  for (let i = 1; i < LANCZOS.length; i++) sum += LANCZOS[i]! / (z + i);
  const t = z + LANCZOS_G + 0.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

const TINY = 1e-300;
const EPSILON = 1e-15;
const MAX_TERMS = 10_000;

/** The continued fraction of I_x(a, b), evaluated by the modified Lentz method (Numerical Recipes §6.4 betacf). */
function betaContinuedFraction(x: number, a: number, b: number): number {
  const clamp = (v: number) => (Math.abs(v) < TINY ? TINY : v);
  let c = 1;
  let d = 1 / clamp(1 - ((a + b) * x) / (a + 1));
  let h = d;
  for (let m = 1; m <= MAX_TERMS; m++) {
    const even = (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m));
    d = 1 / clamp(1 + even * d);
    c = clamp(1 + even / c);
    h *= d * c;
    const odd = (-(a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1));
    d = 1 / clamp(1 + odd * d);
    c = clamp(1 + odd / c);
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < EPSILON) return h;
  }
  throw new Error(`incomplete beta did not converge for x=${x}, a=${a}, b=${b}`);
}

/** The regularized incomplete beta function I_x(a, b), the Beta(a, b) distribution function (Numerical Recipes §6.4). */
export function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  if (!(a > 0 && b > 0)) throw new RangeError(`incomplete beta needs a, b > 0 (got a=${a}, b=${b})`);
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  // The fraction converges fast only below the mean; above it use I_x(a,b) = 1 − I_{1−x}(b,a).
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(x, a, b)) / a;
  return 1 - (front * betaContinuedFraction(1 - x, b, a)) / b;
}

/** The x with I_x(a, b) = probability, by bisection on [0, 1] to 1e-14 (I_x is increasing in x). */
export function betaQuantile(probability: number, a: number, b: number): number {
  if (!(probability >= 0 && probability <= 1)) throw new RangeError(`a probability lies in [0, 1] (got ${probability})`);
  let lo = 0;
  let hi = 1;
  while (hi - lo > 1e-14) {
    const mid = (lo + hi) / 2;
    if (regularizedIncompleteBeta(mid, a, b) < probability) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
