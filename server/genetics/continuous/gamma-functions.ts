// The special functions of the gamma peak-height model, in double precision. EuroForMix takes them from R's
// C library (Rmath `pgamma`, `std::lgamma`); these are written from the textbook series so the engine stays
// pure TypeScript. Accuracy: about 1e-15 relative for lgamma, 1e-14 for the log of the incomplete gamma.

const LANCZOS_G = 7;
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];
const HALF_LOG_TWO_PI = 0.5 * Math.log(2 * Math.PI);

/** log Γ(x) for x > 0 (Lanczos 1964, g = 7; Stirling's series from x = 10, Abramowitz & Stegun 6.1.41); +∞ at 0. */
export function logGamma(x: number): number {
  if (x === 0) return Infinity;
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  if (x >= 10) {
    const inv = 1 / x;
    const inv2 = inv * inv;
    const series = inv * (1 / 12 - inv2 * (1 / 360 - inv2 * (1 / 1260 - inv2 * (1 / 1680 - inv2 / 1188))));
    return (x - 0.5) * Math.log(x) - x + HALF_LOG_TWO_PI + series;
  }
  const z = x - 1;
  let sum = LANCZOS[0]!;
  for (let i = 1; i < LANCZOS.length; i++) sum += LANCZOS[i]! / (z + i);
  const t = z + LANCZOS_G + 0.5;
  return HALF_LOG_TWO_PI + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

const EPSILON = 1e-17;
const MAX_TERMS = 100_000;
const TINY = 1e-300;

/**
 * log P(a, x), the regularized lower incomplete gamma function (Numerical Recipes §6.2: the series below
 * x = a + 1, Lentz's continued fraction for the upper tail above). a = 0 is the point mass at 0 (P = 1, as R's pgamma).
 */
export function logLowerGammaRatio(a: number, x: number): number {
  if (a === 0) return x >= 0 ? 0 : -Infinity;
  if (x <= 0) return -Infinity;
  const logPrefix = a * Math.log(x) - x - logGamma(a);
  if (x < a + 1) {
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n < MAX_TERMS; n++) {
      term *= x / (a + n);
      sum += term;
      if (term < sum * EPSILON) break;
    }
    return logPrefix + Math.log(sum);
  }
  // Q(a, x) = e^{-x} x^a / Γ(a) · 1/(x + 1 − a − 1·(1 − a)/(x + 3 − a − …)), modified Lentz.
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < MAX_TERMS; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPSILON) break;
  }
  return Math.log1p(-Math.exp(logPrefix + Math.log(h)));
}

/** log of the gamma density with shape a and scale s at y > 0: −log Γ(a) − a·log s + (a − 1)·log y − y/s (−∞ for a = 0). */
export function logGammaDensity(y: number, shape: number, scale: number): number {
  return -logGamma(shape) - shape * Math.log(scale) + (shape - 1) * Math.log(y) - y / scale;
}
