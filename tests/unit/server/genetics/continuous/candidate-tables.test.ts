/**
 * Issue 31 "Quantitative database search": at Hd's parameters a candidate's LR factorises per marker over its genotype.
 * Each table value must be the calculator's (continuousLr at fixed parameters, the candidate in an unknown's place),
 * with θ counting the candidate under Hd, a known contributor, stutter and degradation.
 */
import { describe, expect, it } from 'vitest';
import { candidateTables, hpParametersAt } from '../../../../../server/genetics/continuous/candidate-tables';
import { reweighCandidate, fitSearchHd } from '../../../../../server/genetics/continuous/candidate-reweighing';
import { continuousLr } from '../../../../../server/genetics/continuous/continuous-lr';
import { continuousCase, type ContinuousRequest } from '../../../../../server/genetics/continuous/continuous-request';
import type { TypedPerson } from '../../../../../server/genetics/continuous/continuous-types';
import { person, population } from './continuous-fixtures';

const FREQ = population({
  D3S1358: { 14: 0.1, 15: 0.25, 16: 0.25, 17: 0.2, 18: 0.15, 19: 0.05 },
  vWA: { 14: 0.1, 15: 0.1, 16: 0.2, 17: 0.25, 18: 0.2, 19: 0.15 },
  TH01: { 6: 0.2, 7: 0.2, 8: 0.1, 9: 0.2, '9.3': 0.3 },
});
const peaks = (list: [string, number, number][]) => list.map(([allele, height, size]) => ({ allele, height, size }));
const STAIN: ContinuousRequest['replicates'] = [
  [
    { marker: 'D3S1358', peaks: peaks([['14', 90, 118], ['15', 1400, 122], ['16', 420, 126], ['17', 1350, 130]]) },
    { marker: 'vWA', peaks: peaks([['16', 700, 160], ['17', 1500, 164], ['18', 620, 168]]) },
    { marker: 'TH01', peaks: peaks([['6', 1250, 180], ['8', 480, 188], ['9.3', 1600, 197]]) },
  ],
];
const model = { degradation: true, backwardStutter: true, forwardStutter: false };
const victim = person({ D3S1358: ['16', '16'], vWA: ['16', '18'], TH01: ['8', '9.3'] });

function request(over: Partial<ContinuousRequest>): ContinuousRequest {
  return {
    contributors: 3,
    replicates: STAIN,
    personOfInterest: new Map(),
    knownContributors: [victim],
    knownNonContributors: [],
    personOfInterestTypedUnderHd: true,
    population: FREQ,
    populationId: null,
    normalizeFrequencies: true,
    analyticalThreshold: 50,
    markerThresholds: new Map(),
    dropIn: 0.05,
    dropInLambda: 0.01,
    theta: 0.02,
    model,
    fragmentSizes: new Map(['D3S1358', 'vWA', 'TH01'].map((m, i) => [m, { alleles: new Map(), longest: 140 + 60 * i }])),
    parameters: { mode: 'fit', starts: 2, seed: 1 },
    deconvolution: false,
    contributorSearch: null,
    ...over,
  };
}

const hd = { mx: [0.2, 0.5, 0.3], mu: 1100, sigma: 0.25, beta: 0.9, xiB: 0.05, xiF: 0 };
const searchCase = (theta: number) => {
  const c = continuousCase(request({ theta }));
  return { evidence: c.evidence, contributors: 3, knownContributors: [victim], knownNonContributors: [], personOfInterestTypedUnderHd: true };
};
const product = (tables: ReturnType<typeof candidateTables>, candidate: TypedPerson) => [...tables].reduce((s, [m, lr]) => s + Math.log(lr(candidate.get(m) ?? [])!), 0);

describe("a candidate's continuous LR from the search's tables", () => {
  const candidates = [
    person({ D3S1358: ['15', '17'], vWA: ['17', '17'], TH01: ['6', '9.3'] }),
    // 21 is seen nowhere: it is Q, as the calculator takes it.
    person({ D3S1358: ['14', '21'], vWA: ['15', '19'], TH01: ['7', '9'] }),
  ];
  for (const theta of [0, 0.02]) {
    it(`equals the calculator's LR at the same fixed parameters for each placement, to 1e-9 relative (θ ${theta})`, () => {
      for (const position of [0, 1]) {
        const tables = candidateTables(searchCase(theta), hd, position);
        for (const candidate of candidates) {
          const route = continuousLr(continuousCase(request({ theta, personOfInterest: candidate, parameters: { mode: 'fixed', hp: hpParametersAt(hd, 1, position), hd } })));
          const logLr = product(tables, candidate);
          expect(Math.abs(logLr / Math.LN10 - route.log10Lr!)).toBeLessThan(1e-9 * Math.max(1, Math.abs(route.log10Lr!)));
          for (const m of route.markers) expect(tables.get(m.marker)!(candidate.get(m.marker)!)).toBeCloseTo(m.lr!, 9);
        }
      }
    });
  }

  it('gives a genotype the same number bit for bit whenever and however it is asked (a search asks every genotype of its dictionary, most of them Q)', () => {
    const alleles = { D3S1358: ['14', '15', '16', '17', '18', '19', '21', '22'], vWA: ['14', '15', '16', '17', '18', '19', '12'], TH01: ['6', '7', '8', '9', '9.3', '10'] };
    for (const position of [0, 1]) {
      const forward = candidateTables(searchCase(0.02), hd, position);
      const backward = candidateTables(searchCase(0.02), hd, position);
      for (const [marker, list] of Object.entries(alleles)) {
        const pairs = list.flatMap((a, i) => list.slice(i).map((b) => [a, b] as const));
        const first = pairs.map(([a, b]) => forward.get(marker)!([a, b]));
        const reversed = [...pairs].reverse().map(([a, b]) => backward.get(marker)!([b, a])).reverse();
        const again = pairs.map(([a, b]) => forward.get(marker)!([a, b]));
        expect(reversed.every((v, i) => Object.is(v, first[i])), marker).toBe(true);
        expect(again.every((v, i) => Object.is(v, first[i])), marker).toBe(true);
      }
      // Two alleles the evidence lacks are both Q: the same number.
      expect(Object.is(forward.get('D3S1358')!(['15', '21']), forward.get('D3S1358')!(['15', '22']))).toBe(true);
    }
  });

  it('puts the major unknown\'s true genotype above a non-contributor\'s, and leaves an untyped marker uncompared', () => {
    const tables = candidateTables(searchCase(0), hd, 0);
    expect(product(tables, candidates[0]!)).toBeGreaterThan(product(tables, candidates[1]!) + 2);
    expect(tables.get('vWA')!([])).toBeUndefined();
  });

  it('weighs a candidate again by its own Hp fit, never below the likelihood of its best placement at Hd\'s fit', () => {
    const c = searchCase(0);
    const fitting = { model, starts: 2, seed: 1 };
    const fit = fitSearchHd(c, fitting);
    expect(fit.parameters).not.toBeNull();
    const best = Math.max(...[0, 1].map((j) => product(candidateTables(c, fit.parameters!, j), candidates[0]!)));
    const exact = reweighCandidate(c, fitting, fit, candidates[0]!);
    expect(exact.log10Lr! * Math.LN10).toBeGreaterThanOrEqual(best - 1e-9);
    expect(exact.hp!.mx).toHaveLength(3);
    expect(exact.hpFit!.starts).toBe(3);
  });
});
