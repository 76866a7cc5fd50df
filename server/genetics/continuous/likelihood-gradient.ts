import type { HypothesisModel } from './continuous-likelihood';
import type { ModelSwitches } from './continuous-types';
import { compiledLogLikelihood, compiledSlotUsage } from './compiled-marker';
import { DIGIT_COPIES, RADIX } from './joint-genotypes';
import { LikelihoodScratch, markerLogLikelihood } from './marker-likelihood';
import { nestedLogLikelihood } from './nested-marker';
import { fromCoordinates } from './parameter-space';
import { addSlotGradient, slotDerivatives } from './slot-gradient';

/** The central difference step in the fit's coordinates (quasi-newton.ts uses the same). */
export const GRADIENT_STEP = 1e-5;

/** Reused buffers of gradients: per marker its slots' usage. */
export class GradientScratch {
  readonly likelihood = new LikelihoodScratch();
  private readonly buffers: Float64Array[] = [];
  usage(marker: number, size: number): Float64Array {
    let b = this.buffers[marker];
    if (!b || b.length < size) this.buffers[marker] = b = new Float64Array(size);
    return b;
  }
}

/**
 * ∂ log L / ∂ the fit's coordinates at `x` (parameter-space.ts). A marker's log-likelihood is log Σ over joint genotypes
 * of exp(constant + Σ the weights of the slots it uses), the constants (prior, drop-in) free of the parameters, so
 * ∂ log L / ∂x = Σ over slots of the slot's posterior share × ∂ its weight / ∂x: one pass over the joint genotypes for
 * the shares (exact sums at x), then per slot (thousands, not millions) its weight's differences in shape and scale,
 * chained to the coordinates. A central difference of log L costs two full sums per coordinate instead. Markers
 * summed by the generic walk take central differences of their log-likelihood.
 *
 * `known`: each marker's log-likelihood at x when the model's buffers still hold that evaluation (the fit's last
 * call was at x), which saves the compiled markers' sums and lets a nested marker's one pass give its shares.
 */
export function logLikelihoodGradient(model: HypothesisModel, x: readonly number[], switches: ModelSwitches, scratch = new GradientScratch(), known?: readonly number[]): number[] {
  const K = model.contributors;
  const at = (i: number, sign: number) => fromCoordinates(x.map((v, j) => (j === i ? v + sign * GRADIENT_STEP : v)), K, switches);
  const steps = x.map((_, i) => [at(i, 1), at(i, -1)] as const);
  const parameters = fromCoordinates(x, K, switches);
  const gradient = x.map(() => 0);
  const copies = new Float64Array(3 * K);
  model.evidence.markers.forEach((e, m) => {
    const compiled = model.compiled[m];
    const nested = model.nested[m];
    if (compiled) {
      const value = known ? known[m]! : compiledLogLikelihood(compiled, parameters);
      if (value === -Infinity) return;
      const n = compiled.slotPosition.length;
      const usage = scratch.usage(m, n);
      compiledSlotUsage(compiled, value, usage);
      const d = slotDerivatives(e, parameters, steps, GRADIENT_STEP);
      for (let s = 0; s < n; s++) if (usage[s] !== 0) addSlotGradient(e, compiled, d, compiled.slotPosition[s]!, compiled.slotCopies, s * K * 3, K, usage[s]!, gradient);
    } else if (nested) {
      const value = known ? known[m]! : nestedLogLikelihood(nested, parameters);
      if (value === -Infinity) return;
      const usage = scratch.usage(m, nested.weights.length);
      usage.fill(0);
      nestedLogLikelihood(nested, parameters, { logLikelihood: value, slots: usage });
      const d = slotDerivatives(e, parameters, steps, GRADIENT_STEP);
      const tableSize = RADIX ** K;
      for (const slot of nested.slotIndex) {
        if (usage[slot] === 0) continue;
        const p = (slot / tableSize) | 0;
        for (let k = 0, rest = slot - p * tableSize; k < K; k++, rest = (rest / RADIX) | 0) copies.set(DIGIT_COPIES[rest % RADIX]!, 3 * k);
        addSlotGradient(e, nested, d, p, copies, 0, K, usage[slot]!, gradient);
      }
    } else {
      const h = model.markers[m]!;
      steps.forEach(([plus, minus], i) => {
        const d = (markerLogLikelihood(e, h, plus, scratch.likelihood) - markerLogLikelihood(e, h, minus, scratch.likelihood)) / (2 * GRADIENT_STEP);
        if (Number.isFinite(d)) gradient[i]! += d;
      });
    }
  });
  return gradient;
}
