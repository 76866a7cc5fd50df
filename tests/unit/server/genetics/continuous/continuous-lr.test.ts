import { describe, expect, it } from 'vitest';
import { continuousLr } from '../../../../../server/genetics/continuous/continuous-lr';
import { continuousCase, type ContinuousRequest } from '../../../../../server/genetics/continuous/continuous-request';
import { person, population } from './continuous-fixtures';

const FREQ = population({ D3S1358: { 14: 0.1, 15: 0.25, 16: 0.25, 17: 0.2, 18: 0.15, 19: 0.05 } });

function request(over: Partial<ContinuousRequest> = {}): ContinuousRequest {
  return {
    contributors: 2,
    replicates: [[{ marker: 'D3S1358', peaks: [{ allele: '15', height: 800, size: 122.88 }, { allele: '16', height: 400, size: 126.97 }, { allele: '17', height: 800, size: 131.04 }] }]],
    personOfInterest: person({ D3S1358: ['16', '16'] }),
    knownContributors: [],
    knownNonContributors: [],
    personOfInterestTypedUnderHd: true,
    population: FREQ,
    populationId: null,
    normalizeFrequencies: false,
    analyticalThreshold: 50,
    markerThresholds: new Map(),
    dropIn: 0.05,
    dropInLambda: 0.01,
    theta: 0,
    model: { degradation: false, backwardStutter: false, forwardStutter: false },
    fragmentSizes: new Map(),
    parameters: { mode: 'fixed', hp: { mx: [0.2, 0.8], mu: 1000, sigma: 0.2, beta: 1, xiB: 0, xiF: 0 }, hd: { mx: [0.8, 0.2], mu: 1000, sigma: 0.2, beta: 1, xiB: 0, xiF: 0 } },
    deconvolution: true,
    contributorSearch: null,
    ...over,
  };
}

describe('a continuous LR from a request', () => {
  it('deconvolves: each unknown\'s genotype probabilities sum to 1, the major is 15/17 and Hd\'s minor 16/16', () => {
    const r = continuousLr(continuousCase(request()));
    const [hp, hd] = r.hypotheses;
    expect(hp!.deconvolution.map((d) => d.contributor)).toEqual(['Unknown 1']);
    expect(hp!.deconvolution[0]!.genotypes[0]!.alleles).toEqual(['15', '17']);
    expect(hd!.deconvolution.map((d) => [d.contributor, d.genotypes[0]!.alleles])).toEqual([['Unknown 1', ['15', '17']], ['Unknown 2', ['16', '16']]]);
    for (const d of [...hp!.deconvolution, ...hd!.deconvolution]) {
      // At most five listed; with 21 genotypes the rest hold what is missing from 1.
      const listed = d.genotypes.reduce((s, g) => s + g.probability, 0);
      expect(listed).toBeLessThanOrEqual(1 + 1e-12);
      expect(listed).toBeGreaterThan(0.99);
    }
    expect(r.lr).toBeGreaterThan(1);
  });

  it('takes an allele\'s size from its peak when the sizes table lacks it, Q\'s from the table\'s longest; without it, refuses', () => {
    const model = { degradation: true, backwardStutter: false, forwardStutter: false };
    const fixed = { mx: [0.2, 0.8], mu: 1000, sigma: 0.2, beta: 0.8, xiB: 0, xiF: 0 };
    const parameters = { mode: 'fixed' as const, hp: fixed, hd: { ...fixed, mx: [0.8, 0.2] } };
    const sized = continuousLr(continuousCase(request({ model, parameters, fragmentSizes: new Map([['D3S1358', { alleles: new Map(), longest: 147.48 }]]) })));
    const bigger = continuousLr(continuousCase(request({ model, parameters, fragmentSizes: new Map([['D3S1358', { alleles: new Map([['15', 300]]), longest: 147.48 }]]) })));
    expect(sized.markers[0]!.fragmentSizes).toEqual([122.88, 126.97, 131.04, 147.48]);
    expect(bigger.markers[0]!.fragmentSizes).toEqual([300, 126.97, 131.04, 147.48]);
    expect(sized.hypotheses[0]!.logLikelihood).not.toBe(bigger.hypotheses[0]!.logLikelihood);
    expect(() => continuousLr(continuousCase(request({ model, parameters })))).toThrow(/longest fragment/);
  });

  it('refuses, naming the reason: a reference with three alleles, an unseen allele with no frequency left, a repeated peak, too many genotypes', () => {
    expect(() => continuousLr(continuousCase(request({ personOfInterest: person({ D3S1358: ['15', '16', '17'] }) })))).toThrow(/one or two alleles, not 3/);
    const all = population({ D3S1358: { 15: 0.5, 16: 0.2, 17: 0.3 } });
    expect(() => continuousLr(continuousCase(request({ population: all, personOfInterest: person({ D3S1358: ['18', '16'] }) })))).toThrow(/allele 18 is not seen and the seen alleles take every frequency/);
    const repeated = [[{ marker: 'D3S1358', peaks: [{ allele: '15', height: 1500 }, { allele: '15', height: 40 }] }]];
    expect(() => continuousLr(continuousCase(request({ replicates: repeated })))).toThrow(/allele 15 appears more than once/);
    expect(() => continuousLr(continuousCase(request({ replicates: [[{ marker: 'TH01', peaks: [{ allele: '6', height: 900 }] }]] })))).toThrow(/No marker of the evidence has allele frequencies/);
    const wide = population({ D3S1358: Object.fromEntries(Array.from({ length: 60 }, (_, i) => [String(i + 5), 1 / 60])) });
    const peaks = Array.from({ length: 30 }, (_, i) => ({ allele: String(i + 5), height: 500 }));
    const mx = [0.4, 0.3, 0.2, 0.1];
    const fixed = { mode: 'fixed' as const, hp: { mx, mu: 1000, sigma: 0.2, beta: 1, xiB: 0, xiF: 0 }, hd: { mx, mu: 1000, sigma: 0.2, beta: 1, xiB: 0, xiF: 0 } };
    expect(() => continuousLr(continuousCase(request({ contributors: 4, population: wide, replicates: [[{ marker: 'D3S1358', peaks }]], parameters: fixed })))).toThrow(/joint genotypes, more than/);
  });

  it('reports a marker without frequencies as skipped, with the reason', () => {
    const replicates = [[...request().replicates[0]!, { marker: 'TH01', peaks: [{ allele: '6', height: 900 }] }]];
    expect(continuousLr(continuousCase(request({ replicates }))).skippedMarkers).toEqual([{ marker: 'TH01', reason: 'No allele frequencies for this marker in the population.' }]);
  });
});
