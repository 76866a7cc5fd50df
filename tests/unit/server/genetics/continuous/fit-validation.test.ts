import { describe, expect, it } from 'vitest';
import { prepareEvidence, prepareHypothesis } from '../../../../../server/genetics/continuous/continuous-likelihood';
import { validateFit } from '../../../../../server/genetics/continuous/fit-validation';
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
