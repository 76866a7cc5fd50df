import { describe, expect, it } from 'vitest';
import { compiledLogLikelihood, compileMarker } from '../../../../../server/genetics/continuous/compiled-marker';
import { prepareEvidence, prepareHypothesis } from '../../../../../server/genetics/continuous/continuous-likelihood';
import { LikelihoodScratch, markerLogLikelihood } from '../../../../../server/genetics/continuous/marker-likelihood';
import { evidence, person, population, replicate } from './continuous-fixtures';

// A fit evaluates the compiled form (slots and joint genotypes worked out once); deconvolution and markers too large
// to compile walk the sum each time. Both must be the same number, with every part of the model on.
const TABLE = { 9: 0.05, 10: 0.1, 11: 0.2, 12: 0.25, 13: 0.2, 14: 0.1, 15: 0.05 };
const STAIN = [replicate({ M: { 10: 90, 11: 800, 12: 1400, 13: 500, 14: 70 } }), replicate({ M: { 11: 760, 12: 1200, 13: 420, 15: 55 } }), replicate({ M: { 11: 30, 12: 900, 13: 380 } })];
const SIZES: Record<string, number> = { 9: 100, 10: 104, 11: 108, 12: 112, 13: 116, 14: 120, 15: 124 };
const roles = { contributor: (k: number) => `C${k}`, nonContributor: (i: number) => `N${i}` };

describe('the compiled marker likelihood', () => {
  it('equals the walked sum to 1e-14 relative: two unknowns and a known contributor, stutters, degradation, θ, three replicates, drop-ins', () => {
    const e = prepareEvidence(
      evidence(STAIN, population({ M: TABLE }), { theta: 0.02, model: { degradation: true, backwardStutter: true, forwardStutter: true }, fragmentSize: (_, a) => SIZES[a], qAlleleSize: () => 130 }),
    );
    const model = prepareHypothesis(e, { contributors: [person({ M: ['12', '13'] }), null, null], nonContributors: [person({ M: ['9', '11'] })] }, roles);
    const compiled = compileMarker(e.markers[0]!, model.markers[0]!)!;
    for (const p of [
      { mx: [0.6, 0.3, 0.1], mu: 900, sigma: 0.25, beta: 0.8, xiB: 0.07, xiF: 0.015 },
      { mx: [0.2, 0.5, 0.3], mu: 400, sigma: 0.5, beta: 1.1, xiB: 0.2, xiF: 0.05 },
    ]) {
      const walked = markerLogLikelihood(e.markers[0]!, model.markers[0]!, p, new LikelihoodScratch());
      expect(Number.isFinite(walked)).toBe(true);
      expect(Math.abs(compiledLogLikelihood(compiled, p) / walked - 1)).toBeLessThan(1e-14);
    }
  });

  it('is not kept where the joint genotypes × positions pass the bound (the sum is walked instead)', () => {
    // Seven seen alleles and Q: 36⁴ = 1.7 million joint genotypes of four unknowns, × 8 positions.
    const wide = Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`${i + 5}`, 0.1]));
    const e = prepareEvidence(evidence([replicate({ M: Object.fromEntries(Object.keys(wide).map((a) => [a, 300])) })], population({ M: wide })));
    const model = prepareHypothesis(e, { contributors: [null, null, null, null], nonContributors: [] }, roles);
    expect(model.jointGenotypes[0]).toBe(36 ** 4);
    expect(model.compiled[0]).toBeNull();
  });
});
