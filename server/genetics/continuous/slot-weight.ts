import type { GammaParameters } from './continuous-types';
import type { EvidenceMarker } from './evidence-marker';
import { logGamma, logLowerGammaRatio } from './gamma-functions';

/** Per seen position of a marker: replicates with the peak, replicates under the threshold, Σ log y and Σ y over the peaks. */
export interface PeakSums {
  peakCount: Float64Array;
  dropCount: Float64Array;
  sumLogHeight: Float64Array;
  sumHeight: Float64Array;
}

/** The peak sums of a marker's seen positions (worked out once per fit). */
export function peakSums(evidence: EvidenceMarker): PeakSums {
  const { peaks, analyticalThreshold: at } = evidence;
  const seen = evidence.seenCount;
  const perPeak = (f: (y: number) => number) => Float64Array.from({ length: seen }, (_, p) => peaks.reduce((s, r) => s + (r[p]! >= at ? f(r[p]!) : 0), 0));
  return {
    peakCount: perPeak(() => 1),
    dropCount: Float64Array.from({ length: seen }, (_, p) => peaks.reduce((s, r) => s + (r[p]! < at ? 1 : 0), 0)),
    sumLogHeight: perPeak(Math.log),
    sumHeight: perPeak((y) => y),
  };
}

/** The parameters as one evaluation uses them: shape 1/σ², scale μσ² and its log, log β, ξ and the kept share 1 − ξB − ξF. */
export interface SlotFactors {
  shape0: number;
  scale: number;
  logScale: number;
  logBeta: number;
  xiB: number;
  xiF: number;
  kept: number;
}

/** The factors of `parameters` (EuroForMix's shape 1/σ², scale μσ²). */
export function slotFactors(parameters: GammaParameters): SlotFactors {
  const shape0 = 1 / (parameters.sigma * parameters.sigma);
  const scale = parameters.mu / shape0;
  return { shape0, scale, logScale: Math.log(scale), logBeta: Math.log(parameters.beta), xiB: parameters.xiB, xiF: parameters.xiF, kept: 1 - parameters.xiB - parameters.xiF };
}

/** The gamma shape at position p from the Mx-weighted copies there (own, one repeat above, below), degraded by β^size (Bleka, Storvik & Gill 2016). */
export function slotShape(e: EvidenceMarker, f: SlotFactors, p: number, own: number, above: number, below: number): number {
  const { scaledSizes } = e;
  let shape = 0;
  if (p < e.alleleCount) shape = own * (f.shape0 * Math.exp(scaledSizes[p]! * f.logBeta)) * (e.givesStutter[p] ? f.kept : 1);
  const from = e.backwardFrom[p]!;
  if (from >= 0) shape += f.xiB * (above * (f.shape0 * Math.exp(scaledSizes[from]! * f.logBeta)));
  const to = e.forwardFrom[p]!;
  if (to >= 0) shape += f.xiF * (below * (f.shape0 * Math.exp(scaledSizes[to]! * f.logBeta)));
  return shape;
}

/** Position p's log weight over the replicates at `shape`: the gamma log-density of its peaks (one log Γ for all) and P(Y < AT) where none (EuroForMix 4.2.4). */
export function slotLogWeight(e: EvidenceMarker, sums: PeakSums, f: SlotFactors, p: number, shape: number): number {
  const at = e.analyticalThreshold;
  if (p >= e.seenCount) return e.peaks.length * logLowerGammaRatio(shape, at / f.scale);
  let w = sums.peakCount[p]! * (-logGamma(shape) - shape * f.logScale) + (shape - 1) * sums.sumLogHeight[p]! - sums.sumHeight[p]! / f.scale;
  if (sums.dropCount[p]! > 0) w += sums.dropCount[p]! * logLowerGammaRatio(shape, at / f.scale);
  return w;
}
