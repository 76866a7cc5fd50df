import { describe, expect, it } from 'vitest';
import { prepareEvidence, prepareHypothesis } from '../../../../../server/genetics/continuous/continuous-likelihood';
import { continuousLr, type ContinuousCase } from '../../../../../server/genetics/continuous/continuous-lr';
import { fitHypothesis } from '../../../../../server/genetics/continuous/fit-hypothesis';
import { evidence, person, population, replicate } from './continuous-fixtures';

const FREQ = population({ D3S1358: { 14: 0.1, 15: 0.25, 16: 0.25, 17: 0.2, 18: 0.15, 19: 0.05 }, VWA: { 14: 0.1, 15: 0.1, 16: 0.2, 17: 0.3, 18: 0.2, 19: 0.1 } });
const POI = person({ D3S1358: ['15', '17'], VWA: ['16', '16'] });

function lrCase(over: Partial<ContinuousCase>): ContinuousCase {
  return {
    evidence: evidence([replicate({ D3S1358: { 15: 1000, 17: 1000 }, VWA: { 16: 2000 } })], FREQ),
    contributors: 1,
    personOfInterest: POI,
    knownContributors: [],
    knownNonContributors: [],
    personOfInterestTypedUnderHd: true,
    parameters: { mode: 'fit', starts: 3, seed: 1 },
    deconvolution: false,
    analyticalThreshold: 50,
    population: { id: null, name: 'test', minimumAlleleFrequency: 0.001 },
    ...over,
  };
}

describe('invariants of the continuous model', () => {
  it('σ → 0 with heights at their expectation gives the allele-call LR of a single source, 1/(2pq) and 1/p², per marker', () => {
    const fixed = { mx: [1], mu: 1000, sigma: 0.01, beta: 1, xiB: 0, xiF: 0 };
    const r = continuousLr(lrCase({ parameters: { mode: 'fixed', hp: fixed, hd: fixed } }));
    const [d3, vwa] = r.markers;
    expect(Math.abs(d3!.lr! * (2 * 0.25 * 0.2) - 1)).toBeLessThan(1e-9);
    expect(Math.abs(vwa!.lr! * 0.2 ** 2 - 1)).toBeLessThan(1e-9);
    // The markers' log-likelihoods add up to the totals.
    expect(r.log10Lr).toBeCloseTo(d3!.log10Lr! + vwa!.log10Lr!, 12);
  });

  it('a known contributor not typed at a marker is an unknown there: Hp then equals Hd at that marker', () => {
    const partial = person({ D3S1358: ['15', '17'] });
    const fixed = { mx: [1], mu: 1000, sigma: 0.2, beta: 1, xiB: 0, xiF: 0 };
    const r = continuousLr(lrCase({ personOfInterest: partial, personOfInterestTypedUnderHd: false, parameters: { mode: 'fixed', hp: fixed, hd: fixed } }));
    expect(r.markers[1]!.log10Lr).toBe(0);
    expect(r.markers[0]!.log10Lr).toBeGreaterThan(0);
  });

  it('a fit gives the same answer bit for bit, and another seed finds the same optimum', () => {
    const e = prepareEvidence(evidence([replicate({ D3S1358: { 14: 90, 15: 1500, 16: 500, 17: 1300 } }), replicate({ D3S1358: { 15: 1400, 16: 450, 17: 1200 } })], FREQ, { model: { degradation: false, backwardStutter: true, forwardStutter: false } }));
    const model = prepareHypothesis(e, { contributors: [POI, null], nonContributors: [] }, { contributor: String, nonContributor: String });
    const switches = { degradation: false, backwardStutter: true, forwardStutter: false };
    const first = fitHypothesis(model, switches, 3, 11);
    expect(fitHypothesis(model, switches, 3, 11)).toEqual(first);
    expect(first.fit).toMatchObject({ seed: 11, starts: 3, converged: true });
    expect(first.fit.agreeing).toBeGreaterThanOrEqual(2);
    const other = fitHypothesis(model, switches, 3, 12);
    expect(Math.abs(other.logLikelihood!.total - first.logLikelihood!.total)).toBeLessThan(1e-6);
    expect(first.parameters!.mx[0]).toBeCloseTo(other.parameters!.mx[0]!, 3);
  });

  it('a model that cannot explain the evidence is a result with its reason, at fixed parameters and fitted', () => {
    const three = evidence([replicate({ D3S1358: { 15: 1000, 16: 900, 17: 800 } })], FREQ, { dropIn: 0 });
    const fixed = { mx: [1], mu: 1000, sigma: 0.2, beta: 1, xiB: 0, xiF: 0 };
    for (const parameters of [{ mode: 'fixed' as const, hp: fixed, hd: fixed }, { mode: 'fit' as const, starts: 2, seed: 1 }]) {
      const r = continuousLr(lrCase({ evidence: three, parameters }));
      expect(r.lr).toBeNull();
      expect(r.note).toMatch(/likelihood 0 under Hd/);
      expect(r.hypotheses.map((h) => h.logLikelihood)).toEqual([null, null]);
    }
  });
});
