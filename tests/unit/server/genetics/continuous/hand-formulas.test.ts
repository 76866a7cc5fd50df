import { describe, expect, it } from 'vitest';
import { logLikelihood, prepareEvidence, prepareHypothesis } from '../../../../../server/genetics/continuous/continuous-likelihood';
import type { ContinuousEvidence, GammaParameters, TypedPerson } from '../../../../../server/genetics/continuous/continuous-types';
import { evidence, person, population, replicate } from './continuous-fixtures';

// GENETICS.md "Continuous model": a peak is Gamma(shape = Σ Mx·copies·β^s / σ², scale = μσ²). With 1/σ² = 4 the
// shapes are whole numbers and Γ a factorial, so each likelihood below is written out by hand. Tolerance 1e-12 relative.
const roles = { contributor: (k: number) => `C${k + 1}`, nonContributor: (i: number) => `N${i + 1}` };
const FREQ = population({ D3S1358: { 14: 0.1, 15: 0.25, 16: 0.25, 17: 0.2, 18: 0.15, 19: 0.05 } });
const SIGMA = 0.5;
const MU = 1000;
const SCALE = MU * SIGMA * SIGMA;
const C = 0.05;
const factorial = (n: number): number => (n <= 1 ? 1 : n * factorial(n - 1));
/** The gamma density with a whole-number shape n: y^(n−1) e^(−y/s) / ((n − 1)! sⁿ). */
const density = (y: number, n: number, scale = SCALE) => (y ** (n - 1) * Math.exp(-y / scale)) / (factorial(n - 1) * scale ** n);
const parameters = (over: Partial<GammaParameters> = {}): GammaParameters => ({ mx: [1], mu: MU, sigma: SIGMA, beta: 1, xiB: 0, xiF: 0, ...over });

function likelihood(e: ContinuousEvidence, contributors: (TypedPerson | null)[], p: GammaParameters): number {
  return Math.exp(logLikelihood(prepareHypothesis(prepareEvidence(e), { contributors, nonContributors: [] }, roles), p).total);
}
const expectRelative = (actual: number, expected: number) => expect(Math.abs(actual / expected - 1)).toBeLessThan(1e-12);

describe('the gamma model by hand, one marker', () => {
  it('one contributor, heterozygote, no stutter: the product of two gamma densities and no drop-in', () => {
    const e = evidence([replicate({ D3S1358: { 15: 1100, 17: 870 } })], FREQ);
    expectRelative(likelihood(e, [person({ D3S1358: ['15', '17'] })], parameters()), density(1100, 4) * density(870, 4) * (1 - C));
  });

  it('one contributor, homozygote: one density with twice the shape', () => {
    const e = evidence([replicate({ D3S1358: { 16: 2100 } })], FREQ);
    expectRelative(likelihood(e, [person({ D3S1358: ['16'] })], parameters()), density(2100, 8) * (1 - C));
  });

  it('a drop-out is P(Y < AT) of the allele\'s gamma, a drop-in c·p·λe^(−λ(y − AT))', () => {
    const x = 50 / SCALE;
    const dropout = 1 - Math.exp(-x) * (1 + x + x ** 2 / 2 + x ** 3 / 6);
    const e = evidence([replicate({ D3S1358: { 15: 1100, 19: 70 } })], FREQ);
    expectRelative(likelihood(e, [person({ D3S1358: ['15', '17'] })], parameters()), density(1100, 4) * dropout * C * 0.05 * 0.01 * Math.exp(-0.01 * 20));
  });

  it('two known contributors: a shared allele\'s shape is the sum of both shares', () => {
    // Mx 0.75 / 0.25: 15 shared → shape 4, 17 (first only) → 3, 16 (second only) → 1.
    const e = evidence([replicate({ D3S1358: { 15: 1000, 16: 260, 17: 740 } })], FREQ);
    const p = parameters({ mx: [0.75, 0.25] });
    expectRelative(likelihood(e, [person({ D3S1358: ['15', '17'] }), person({ D3S1358: ['15', '16'] })], p), density(1000, 4) * density(260, 1) * density(740, 3) * (1 - C));
  });

  it('backward stutter: the parent keeps 1 − ξB of its share, one repeat below receives ξB of it', () => {
    // 1/σ² = 5, ξB = 0.1: 15 and 17 have shape 4.5, their stutters 14 and 16 shape 0.5 (Γ(4.5) = 105√π/16, Γ(0.5) = √π).
    const sigma = 1 / Math.sqrt(5);
    const scale = MU / 5;
    const g = (y: number, shape: number, gamma: number) => (y ** (shape - 1) * Math.exp(-y / scale)) / (gamma * scale ** shape);
    const root = Math.sqrt(Math.PI);
    const e = evidence([replicate({ D3S1358: { 14: 80, 15: 1000, 16: 90, 17: 900 } })], FREQ, { model: { degradation: false, backwardStutter: true, forwardStutter: false } });
    const expected = g(80, 0.5, root) * g(1000, 4.5, (105 * root) / 16) * g(90, 0.5, root) * g(900, 4.5, (105 * root) / 16) * (1 - C);
    expectRelative(likelihood(e, [person({ D3S1358: ['15', '17'] })], parameters({ sigma, xiB: 0.1 })), expected);
  });

  it('forward stutter: one repeat above receives ξF; a stutter position with no peak is a drop-out of the stutter\'s shape', () => {
    // 1/σ² = 5, ξB = ξF = 0.1, homozygote 15: shape 2·5·0.8 = 8 at 15, 2·5·0.1 = 1 at 14 (seen) and at 16 (not seen: P(Y < 50) = 1 − e^(−50/s)).
    const sigma = 1 / Math.sqrt(5);
    const scale = MU / 5;
    const e = evidence([replicate({ D3S1358: { 14: 80, 15: 2000 } })], FREQ, { model: { degradation: false, backwardStutter: true, forwardStutter: true } });
    const expected = density(80, 1, scale) * density(2000, 8, scale) * (1 - Math.exp(-50 / scale)) * (1 - C);
    expectRelative(likelihood(e, [person({ D3S1358: ['15'] })], parameters({ sigma, xiB: 0.1, xiF: 0.1 })), expected);
  });

  it('degradation: each allele\'s share × β^((size − 125)/100)', () => {
    // β = 0.5: 15 at 225 bp (s = 1) has shape 2, 17 at 325 bp (s = 2) shape 1; Q (not carried) needs a size all the same.
    const sizes: Record<string, number> = { 15: 225, 17: 325 };
    const e = evidence([replicate({ D3S1358: { 15: 600, 17: 300 } })], FREQ, { model: { degradation: true, backwardStutter: false, forwardStutter: false }, fragmentSize: (_, a) => sizes[a], qAlleleSize: () => 400 });
    expectRelative(likelihood(e, [person({ D3S1358: ['15', '17'] })], parameters({ beta: 0.5 })), density(600, 2) * density(300, 1) * (1 - C));
  });
});
