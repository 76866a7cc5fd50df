import { betaCdf, betaQuantile } from './beta-distribution';
import type { PeakCumulative } from './validation-types';

export type { PeakCumulative } from './validation-types';

/** One point of the PP-plot: the peak, the uniform order statistic it is set against, and whether it lies outside the Bonferroni envelope. */
export interface PpPoint extends PeakCumulative {
  expected: number;
  outside: boolean;
}

/** An envelope of the order statistics at one significance level: its lower and upper line over the expected probabilities. */
export interface PpEnvelope {
  alpha: number;
  lines: { expected: number; lower: number; upper: number }[];
}

export interface PpPlot {
  points: PpPoint[];
  /** At `alpha` and at the Bonferroni-adjusted alpha / N. */
  envelopes: PpEnvelope[];
  /** Points outside the Bonferroni envelope. */
  outside: number;
}

/** The significance level of EuroForMix's envelope. */
export const PP_ALPHA = 0.01;

/**
 * The PP-plot of a fit (EuroForMix 4.2.4 `validMLEmodel`): the N cumulative probabilities sorted against (i − ½)/N,
 * with the envelopes qbeta(α/2 | 1 − α/2, N·x, N − N·x + 1) at α and at α/N (Bonferroni); a point is outside when
 * its two-sided p-value under Beta(N·x, N − N·x + 1) is below α/(2N).
 */
export function ppPlot(peaks: readonly PeakCumulative[], alpha = PP_ALPHA, steps = 100): PpPlot {
  const n = peaks.length;
  const sorted = [...peaks].sort((a, b) => a.cumulative - b.cumulative);
  const bonferroni = alpha / Math.max(n, 1);
  const points = sorted.map((peak, i) => {
    const expected = (i + 0.5) / n;
    const below = betaCdf(peak.cumulative, n * expected, n - n * expected + 1);
    const p = peak.cumulative < expected ? below : 1 - below;
    return { ...peak, expected, outside: p < bonferroni / 2 };
  });
  const envelopes =
    n === 0
      ? []
      : [alpha, bonferroni].map((level) => ({
          alpha: level,
          lines: Array.from({ length: steps + 1 }, (_, s) => {
            const x = s / steps;
            return { expected: x, lower: betaQuantile(level / 2, n * x, n - n * x + 1), upper: betaQuantile(1 - level / 2, n * x, n - n * x + 1) };
          }),
        }));
  return { points, envelopes, outside: points.filter((p) => p.outside).length };
}
