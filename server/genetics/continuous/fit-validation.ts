import type { HypothesisModel } from './continuous-likelihood';
import type { GammaParameters } from './continuous-types';
import { compiledLogLikelihood } from './compiled-marker';
import { logGammaDensity, logLowerGammaRatio } from './gamma-functions';
import type { ExpectedHeight, PeakCumulative } from '../../../core/continuous/validation-types';

export type { ExpectedHeight, PeakCumulative } from '../../../core/continuous/validation-types';

/**
 * Model validation at the fitted parameters (EuroForMix `validMLEmodel`; Bleka, Storvik & Gill 2016): each observed
 * height's cumulative probability P(Y ≤ y | Y ≥ AT) given every other observation of its marker — the joint genotypes
 * weighed by the likelihood with that height left out (known only to be over the threshold), a drop-in's height
 * exponential over AT — and per position the expected height μ·Σ Mx·copies (degraded, stutters) averaged over the
 * genotypes' posterior. Markers too large to compile are left out. Uniform cumulative probabilities mean a good fit.
 */
export function validateFit(model: HypothesisModel, parameters: GammaParameters): { peaks: PeakCumulative[]; expected: ExpectedHeight[] } {
  const peaks: PeakCumulative[] = [];
  const expected: ExpectedHeight[] = [];
  const scale = parameters.mu * parameters.sigma * parameters.sigma;
  model.compiled.forEach((m, i) => {
    if (!m) return;
    const e = model.evidence.markers[i]!;
    const logTotal = compiledLogLikelihood(m, parameters);
    if (!Number.isFinite(logTotal)) return;
    const { leafWeight, leafOffsets, leafSlots, slotPosition, slotShape } = m;
    const at = e.analyticalThreshold;
    const lambda = e.dropInLambda;
    const { leafConstant } = m;
    const leafWithout = (leaf: number, p: number) => {
      let w = leafConstant[leaf]!;
      for (let j = leafOffsets[leaf]!; j < leafOffsets[leaf + 1]!; j++) if (slotPosition[leafSlots[j]!] !== p) w += m.slotWeight[leafSlots[j]!]!;
      return w;
    };
    const shapeAt = (leaf: number, p: number) => {
      for (let j = leafOffsets[leaf]!; j < leafOffsets[leaf + 1]!; j++) if (slotPosition[leafSlots[j]!] === p) return slotShape[leafSlots[j]!]!;
      return 0;
    };
    for (let p = 0; p < e.positions.length; p++) {
      let mean = 0;
      for (let leaf = 0; leaf < leafWeight.length; leaf++) mean += Math.exp(leafWeight[leaf]! - logTotal) * shapeAt(leaf, p) * scale;
      expected.push({ marker: e.marker, allele: e.positions[p]!, observed: e.peaks.map((r) => (p < e.seenCount && r[p]! >= at ? r[p]! : null)), expected: mean });
    }
    for (let r = 0; r < e.peaks.length; r++)
      for (let p = 0; p < e.seenCount; p++) {
        const y = e.peaks[r]![p]!;
        if (y < at) continue;
        // Per joint genotype: its weight with this height's term replaced by P(Y ≥ AT), and P(Y ≤ y | Y ≥ AT).
        let max = -Infinity;
        const terms: [number, number][] = [];
        for (let leaf = 0; leaf < leafWeight.length; leaf++) {
          const shape = shapeAt(leaf, p);
          let w: number;
          let cumulative: number;
          if (shape > 0) {
            // P(Y < AT) is 1 within rounding for a vanishing shape (its series can pass 1 by 1e-14): held to 1.
            const below = Math.min(1, Math.exp(logLowerGammaRatio(shape, at / scale)));
            const logDensity = logGammaDensity(y, shape, scale);
            w = leafWeight[leaf]! - logDensity + Math.log1p(-below);
            cumulative = (Math.exp(logLowerGammaRatio(shape, y / scale)) - below) / (1 - below);
          } else {
            // A drop-in: its height's density λe^(−λ(y − AT)) left out, its occurrence c·p kept.
            w = leafWeight[leaf]! - (Math.log(lambda) - lambda * (y - at));
            cumulative = -Math.expm1(-lambda * (y - at));
          }
          // The height's own term was −∞ (a density that underflows): −∞ − (−∞) is not a number; sum the other terms anew.
          if (Number.isNaN(w)) w = leafWithout(leaf, p) + (shape > 0 ? Math.log1p(-Math.min(1, Math.exp(logLowerGammaRatio(shape, at / scale)))) : 0);
          // A genotype of weight 0 with the height left out (a shape so small that P(Y ≥ AT) is 0) adds nothing; its 0/0 must not spoil the sum.
          if (w === -Infinity) continue;
          terms.push([w, cumulative]);
          if (w > max) max = w;
        }
        let sum = 0;
        let weighted = 0;
        for (const [w, c] of terms) {
          const share = Math.exp(w - max);
          sum += share;
          weighted += share * c;
        }
        peaks.push({ marker: e.marker, replicate: r + 1, allele: e.positions[p]!, height: y, cumulative: weighted / sum });
      }
  });
  return { peaks, expected };
}
