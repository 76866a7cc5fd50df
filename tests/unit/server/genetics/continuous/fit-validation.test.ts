import { describe, expect, it } from 'vitest';
import { prepareEvidence, prepareHypothesis } from '../../../../../server/genetics/continuous/continuous-likelihood';
import { validateFit } from '../../../../../server/genetics/continuous/fit-validation';
import { LikelihoodScratch, markerLogLikelihood } from '../../../../../server/genetics/continuous/marker-likelihood';
import { evidence, person, population, replicate } from './continuous-fixtures';

// One typed contributor (a single joint genotype): the PP-plot point of a height is the gamma's
// (P(y) − P(AT)) / (1 − P(AT)), a drop-in's 1 − e^(−λ(y − AT)); the expected height μ × copies. Values from R 4:
// pgamma(y, 1/σ², scale = μσ²) with μ 900, σ 0.15, AT 50, λ 0.01.
const TABLE = { 14: 0.1, 15: 0.25, 16: 0.25, 17: 0.2, 18: 0.15, 19: 0.05 };
const P = { mx: [1], mu: 900, sigma: 0.15, beta: 1, xiB: 0, xiF: 0 };
const roles = { contributor: () => 'C', nonContributor: () => 'N' };

function validation(genotype: string[], peaks: Record<string, number>) {
  const e = prepareEvidence(evidence([replicate({ D3S1358: peaks })], population({ D3S1358: TABLE })));
  return validateFit(prepareHypothesis(e, { contributors: [person({ D3S1358: genotype })], nonContributors: [] }, roles), P);
}

describe('model validation at the fit', () => {
  it('a heterozygote: each height\'s cumulative probability over the threshold, and expected heights μ', () => {
    const v = validation(['15', '17'], { 15: 1000, 17: 800 });
    expect(v.peaks.map((p) => [p.allele, p.height])).toEqual([['15', 1000], ['17', 800]]);
    expect(v.peaks[0]!.cumulative).toBeCloseTo(0.77772650324355219, 13);
    expect(v.peaks[1]!.cumulative).toBeCloseTo(0.23588611152703592, 13);
    expect(v.expected.filter((x) => x.allele !== 'Q').map((x) => [x.allele, x.observed, x.expected])).toEqual([['15', [1000], 900], ['17', [800], 900]]);
  });

  it('a homozygote twice the share, and a drop-in\'s height exponential over the threshold', () => {
    const v = validation(['15', '15'], { 15: 1000, 17: 120 });
    expect(Math.abs(v.peaks[0]!.cumulative / 2.7049481638678471e-7 - 1)).toBeLessThan(1e-10);
    expect(v.peaks[1]!.cumulative).toBeCloseTo(0.50341469620859058, 14);
    expect(v.expected.find((x) => x.allele === '15')!.expected).toBeCloseTo(1800, 9);
    expect(v.expected.find((x) => x.allele === '17')!.expected).toBe(0);
  });
});

// Brute force (EuroForMix validMLEmodel's quantity, Bleka, Storvik & Gill 2016): a height's cumulative probability is
// ∫ from AT to y of the marker's whole likelihood with that one height set to y', over the same integral to ∞ — every
// joint genotype of the unknowns, the other heights, the drop-outs, stutters and drop-ins as they are. Integrated here
// by Simpson's rule over the walked sum (markerLogLikelihood), which shares nothing with the validation's compiled sums.
// EuroForMix (EFMfastengine.cpp calcValidMLEmarker) computes the same ratio, its lower bound at AT − 1 RFU and its upper
// one at the 0.99999 quantile of a homozygote's height instead of ∞; the PP-plot of the ESX17 case sits above the
// diagonal from the fit, not from this computation.
describe('each height\'s cumulative probability against brute-force integration of the likelihood', () => {
  const FREQUENCIES = { 13: 0.05, 14: 0.12, 15: 0.2, 16: 0.22, 17: 0.18, 18: 0.1, 19: 0.08, 20: 0.05 };
  const AT = 50;
  const FIT = { mx: [0.7, 0.3], mu: 1000, sigma: 0.25, beta: 1, xiB: 0.1, xiF: 0.03 };
  /** The evidence's drop-in peak-height rate (continuous-fixtures: λ 0.01). */
  const FIT_LAMBDA = 0.01;

  /** Simpson's rule for f over [a, b] in n (even) intervals. */
  function simpson(f: (x: number) => number, a: number, b: number, n: number): number {
    const h = (b - a) / n;
    let sum = f(a) + f(b);
    for (let i = 1; i < n; i++) sum += (i % 2 === 0 ? 2 : 4) * f(a + i * h);
    return (sum * h) / 3;
  }

  it('two unknowns, both stutters, a drop-out in the second run and a drop-in: each point is the integral’s ratio', () => {
    // 14 is 15's backward stutter (under AT in the second run), 19 a peak no genotype need explain.
    const runs = [replicate({ D3S1358: { 14: 90, 15: 650, 16: 1100, 17: 420, 19: 75 } }), replicate({ D3S1358: { 14: 40, 15: 700, 16: 980, 17: 380 } })];
    const e = prepareEvidence(evidence(runs, population({ D3S1358: FREQUENCIES }), { model: { degradation: false, backwardStutter: true, forwardStutter: true } }));
    const model = prepareHypothesis(e, { contributors: [null, null], nonContributors: [] }, roles);
    const { peaks } = validateFit(model, FIT);
    const marker = e.markers[0]!;
    const scratch = new LikelihoodScratch();
    // Eight heights over AT: the second run's 40 at 14 is a drop-out, not a point.
    expect(peaks.map((p) => `${p.replicate}:${p.allele}`).sort()).toEqual(['1:14', '1:15', '1:16', '1:17', '1:19', '2:15', '2:16', '2:17']);
    for (const point of peaks) {
      const p = marker.positions.indexOf(point.allele);
      const row = marker.peaks[point.replicate - 1]!;
      // The height y' wherever the likelihood reads it: the peak, and its drop-in weight c·p·λe^(−λ(y' − AT)).
      const dropIn = marker.dropInWeights[point.replicate - 1]!;
      const dropInAt = dropIn[p]!;
      const at = (y: number) => {
        row[p] = y;
        dropIn[p] = dropInAt - FIT_LAMBDA * (y - point.height);
        return markerLogLikelihood(marker, model.markers[0]!, FIT, scratch);
      };
      const scale = at(point.height);
      const f = (y: number) => Math.exp(at(y) - scale);
      // Beyond 4,000 RFU nothing is left to integrate (the largest expected height is about 1,300 RFU, σ 0.25).
      const below = simpson(f, AT, point.height, 200);
      const all = below + simpson(f, point.height, 4000, 2000);
      row[p] = point.height;
      dropIn[p] = dropInAt;
      expect(point.cumulative, `${point.replicate}:${point.allele}`).toBeCloseTo(below / all, 8);
    }
  }, 120_000);
});
