import type { GammaParameters } from './continuous-types';
import type { EvidenceMarker } from './evidence-marker';
import { slotFactors, slotLogWeight, slotShape, type PeakSums, type SlotFactors } from './slot-weight';

/** Relative step of the differences of a slot's weight in its shape and in the scale. */
const RELATIVE = 1e-6;

/**
 * What the gradient of one marker needs at x, per coordinate i of the fit: the factors at x, ∂ scale / ∂x_i, ∂ mx_k /
 * ∂x_i, and per position its shape coefficients and their derivatives. A slot's shape is linear in the Mx-weighted
 * copies: own·a_p + above·b_p + below·c_p (slotShape), a, b, c free of Mx; so ∂ shape / ∂x_i follows from these.
 */
export interface SlotDerivatives {
  f: SlotFactors;
  /** The factors with the scale one relative step either side, and that step. */
  scaleUp: SlotFactors;
  scaleDown: SlotFactors;
  scaleStep: number;
  /** Mx at x. */
  at: readonly number[];
  scale: Float64Array;
  mx: Float64Array[];
  /** [position × 3]: a_p, b_p, c_p at x; per coordinate their central differences. */
  coefficients: Float64Array;
  dCoefficients: Float64Array[];
}

/** The coefficients a_p, b_p, c_p of slotShape at factors f: its shape for one copy of each kind alone. */
function coefficients(e: EvidenceMarker, f: SlotFactors, out: Float64Array): void {
  for (let p = 0; p < e.positions.length; p++) {
    out[3 * p] = slotShape(e, f, p, 1, 0, 0);
    out[3 * p + 1] = slotShape(e, f, p, 0, 1, 0);
    out[3 * p + 2] = slotShape(e, f, p, 0, 0, 1);
  }
}

/** The derivatives of a marker at `parameters`, `steps` the parameters one coordinate step h either side. */
export function slotDerivatives(e: EvidenceMarker, parameters: GammaParameters, steps: readonly (readonly [GammaParameters, GammaParameters])[], h: number): SlotDerivatives {
  const n = e.positions.length * 3;
  const f = slotFactors(parameters);
  const at = new Float64Array(n);
  coefficients(e, f, at);
  const up = new Float64Array(n);
  const down = new Float64Array(n);
  const scaleStep = f.scale * RELATIVE;
  return {
    f,
    scaleUp: scaled(f, f.scale + scaleStep),
    scaleDown: scaled(f, f.scale - scaleStep),
    scaleStep,
    at: parameters.mx,
    scale: Float64Array.from(steps, ([plus, minus]) => (slotFactors(plus).scale - slotFactors(minus).scale) / (2 * h)),
    mx: steps.map(([plus, minus]) => Float64Array.from(plus.mx, (m, k) => (m - minus.mx[k]!) / (2 * h))),
    coefficients: at,
    dCoefficients: steps.map(([plus, minus]) => {
      coefficients(e, slotFactors(plus), up);
      coefficients(e, slotFactors(minus), down);
      return Float64Array.from(up, (u, j) => (u - down[j]!) / (2 * h));
    }),
  };
}

/**
 * Adds usage × ∂ weight / ∂x_i to gradient[i] for the slot at position p whose contributors put `copies[offset + 3k ..]`
 * (own, above, below) there: the weight's differences in its shape and in the scale (slotLogWeight), chained.
 */
export function addSlotGradient(e: EvidenceMarker, sums: PeakSums, d: SlotDerivatives, p: number, copies: ArrayLike<number>, offset: number, contributors: number, usage: number, gradient: number[]): void {
  const mx0 = d.mx;
  const c = d.coefficients;
  let own = 0;
  let above = 0;
  let below = 0;
  const { f, at: mx } = d;
  const a = c[3 * p]!;
  const b = c[3 * p + 1]!;
  const cc = c[3 * p + 2]!;
  for (let k = 0; k < contributors; k++) {
    own += copies[offset + 3 * k]! * mx[k]!;
    above += copies[offset + 3 * k + 1]! * mx[k]!;
    below += copies[offset + 3 * k + 2]! * mx[k]!;
  }
  const shape = own * a + above * b + below * cc;
  const ds = shape * RELATIVE;
  const wShape = (slotLogWeight(e, sums, f, p, shape + ds) - slotLogWeight(e, sums, f, p, shape - ds)) / (2 * ds);
  const wScale = (slotLogWeight(e, sums, d.scaleUp, p, shape) - slotLogWeight(e, sums, d.scaleDown, p, shape)) / (2 * d.scaleStep);
  for (let i = 0; i < gradient.length; i++) {
    const dm = mx0[i]!;
    let dShape = 0;
    for (let k = 0; k < contributors; k++) {
      const j = dm[k]!;
      if (j !== 0) dShape += j * (copies[offset + 3 * k]! * a + copies[offset + 3 * k + 1]! * b + copies[offset + 3 * k + 2]! * cc);
    }
    const dc3 = d.dCoefficients[i]!;
    dShape += own * dc3[3 * p]! + above * dc3[3 * p + 1]! + below * dc3[3 * p + 2]!;
    const g = usage * (wShape * dShape + wScale * d.scale[i]!);
    if (Number.isFinite(g)) gradient[i]! += g;
  }
}

const scaled = (f: SlotFactors, scale: number): SlotFactors => ({ ...f, scale, logScale: Math.log(scale) });
