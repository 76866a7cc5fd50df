import { describe, expect, it } from 'vitest';
import { logLikelihood, prepareEvidence, prepareHypothesis } from '../../../../../server/genetics/continuous/continuous-likelihood';
import { fitHypothesis } from '../../../../../server/genetics/continuous/fit-hypothesis';
import { evidence, person, population, replicate } from './continuous-fixtures';

// Reference values: EuroForMix 4.2.4 (oyvble/euroformix 0b5b929) built from source with R 4.2.2, its genotype
// weights switched from single to double precision (`fvec m_pGvec` → `vec`, so the values are the model's, not
// float rounding), called as prepareC → prepareCobj → calcGenoWeightsMax → restrictGenos(0) → loglik, logliki.
// Unmodified (float weights) it gives e.g. −14.545744537949885 for case 1 under Hd: 1.1e-7 from the double value.
// Tolerance 1e-12 absolute on natural-log likelihoods (so 1e-12 relative on the LR).
const TOLERANCE = 1e-12;
const roles = { contributor: (k: number) => `Contributor ${k + 1}`, nonContributor: (i: number) => `Non-contributor ${i + 1}` };

/** Case 2: two replicates at two markers with stutters, a drop-in, an allele missing from the table; sizes from EuroForMix's ESX17 kit. */
function caseTwo() {
  // Sizes: EuroForMix's ESX17 kit table; 16.3 is absent from it and EuroForMix places it at 16 × 4 + 3 + 175.57 bp.
  const sizes: Record<string, Record<string, number>> = { D3S1358: { 14: 118.77, 15: 122.88, 16: 126.97, 17: 131.04, 18: 135.18, 19: 139.22 }, D8S1179: { 11: 219.58, 12: 223.59, 13: 227.59, 14: 231.65, '16.3': 242.57 } };
  const longest: Record<string, number> = { D3S1358: 147.48, D8S1179: 255.93 };
  return prepareEvidence(
    evidence(
      [
        replicate({ D3S1358: { 14: 120, 15: 1500, 16: 700, 17: 650, 18: 60 }, D8S1179: { 11: 90, 12: 900, 13: 850, 14: 300, '16.3': 70 } }),
        replicate({ D3S1358: { 15: 1400, 16: 750, 17: 600, 19: 55 }, D8S1179: { 12: 1000, 13: 800, 14: 250 } }),
      ],
      population({ D3S1358: { 14: 0.1, 15: 0.25, 16: 0.25, 17: 0.2, 18: 0.15, 19: 0.04 }, D8S1179: { 10: 0.1, 11: 0.1, 12: 0.15, 13: 0.3, 14: 0.2, 15: 0.1, 16: 0.04 } }),
      { normalizeFrequencies: true, theta: 0.01, model: { degradation: true, backwardStutter: true, forwardStutter: true }, fragmentSize: (m, a) => sizes[m]?.[a], qAlleleSize: (m) => longest[m] },
    ),
  );
}

describe('the gamma model at fixed parameters against EuroForMix 4.2.4 (double weights)', () => {
  it('one marker, one contributor, no stutter, no degradation: Hp and Hd', () => {
    const e = prepareEvidence(evidence([replicate({ D3S1358: { 15: 1000, 17: 800 } })], population({ D3S1358: { 14: 0.1, 15: 0.25, 16: 0.25, 17: 0.2, 18: 0.15, 19: 0.05 } })));
    const parameters = { mx: [1], mu: 900, sigma: 0.15, beta: 1, xiB: 0, xiF: 0 };
    const poi = person({ D3S1358: ['15', '17'] });
    expect(Math.abs(logLikelihood(prepareHypothesis(e, { contributors: [poi], nonContributors: [] }, roles), parameters).total - -12.243159334338957)).toBeLessThan(TOLERANCE);
    expect(Math.abs(logLikelihood(prepareHypothesis(e, { contributors: [null], nonContributors: [] }, roles), parameters).total - -14.545744427254087)).toBeLessThan(TOLERANCE);
  });

  it('two contributors, both stutters, degradation, two replicates, θ, drop-ins, normalised frequencies and an allele missing from the table', () => {
    const e = caseTwo();
    const poi = person({ D3S1358: ['15', '16'], D8S1179: ['12', '13'] });
    const victim = person({ D3S1358: ['17', '17'], D8S1179: ['14', '14'] });
    const shared = { mu: 1000, sigma: 0.18, beta: 0.85, xiB: 0.08, xiF: 0.02 };
    const hp = logLikelihood(prepareHypothesis(e, { contributors: [poi, victim], nonContributors: [] }, roles), { mx: [0.7, 0.3], ...shared });
    // Hd: the victim is contributor 1 and the person of interest a typed non-contributor (EuroForMix knownRef).
    const hd = logLikelihood(prepareHypothesis(e, { contributors: [victim, null], nonContributors: [poi] }, roles), { mx: [0.4, 0.6], ...shared });
    const expected = { hp: [-77.320157065266272, -67.407722156729974], hd: [-84.841773819236906, -80.68036434786832] };
    hp.perMarker.forEach((l, i) => expect(Math.abs(l - expected.hp[i]!)).toBeLessThan(TOLERANCE));
    hd.perMarker.forEach((l, i) => expect(Math.abs(l - expected.hd[i]!)).toBeLessThan(TOLERANCE));
    expect(Math.abs(hp.total - -144.72787922199626)).toBeLessThan(TOLERANCE);
    expect(Math.abs(hd.total - -165.52213816710523)).toBeLessThan(TOLERANCE);
  });

  it('three contributors with two and three unknowns, backward stutter, θ, the person of interest untyped at a marker', () => {
    const e = prepareEvidence(
      evidence([replicate({ D3S1358: { 14: 300, 15: 1200, 16: 500, 17: 900, 18: 200 }, VWA: { 16: 700, 17: 1800, 18: 400 } })], population({ D3S1358: { 14: 0.1, 15: 0.25, 16: 0.25, 17: 0.2, 18: 0.15, 19: 0.05 }, VWA: { 14: 0.1, 15: 0.1, 16: 0.2, 17: 0.3, 18: 0.2, 19: 0.1 } }), {
        theta: 0.02,
        model: { degradation: false, backwardStutter: true, forwardStutter: false },
      }),
    );
    const poi = person({ D3S1358: ['15', '18'] });
    const shared = { mu: 800, sigma: 0.25, beta: 1, xiB: 0.1, xiF: 0 };
    const hp = logLikelihood(prepareHypothesis(e, { contributors: [poi, null, null], nonContributors: [] }, roles), { mx: [0.5, 0.3, 0.2], ...shared });
    const hd = logLikelihood(prepareHypothesis(e, { contributors: [null, null, null], nonContributors: [poi] }, roles), { mx: [0.45, 0.35, 0.2], ...shared });
    const expected = { hp: [-48.299920046953282, -31.690041640569078], hd: [-46.235625668923824, -31.628700351766078] };
    hp.perMarker.forEach((l, i) => expect(Math.abs(l - expected.hp[i]!)).toBeLessThan(TOLERANCE));
    hd.perMarker.forEach((l, i) => expect(Math.abs(l - expected.hd[i]!)).toBeLessThan(TOLERANCE));
  });
});

describe('the maximum-likelihood fit against EuroForMix 4.2.4\'s calcMLE (double weights, nDone 4, steptol 1e-6)', () => {
  it('reaches EuroForMix\'s maximum under both hypotheses of case 2, with the same parameters', () => {
    const e = caseTwo();
    const switches = { degradation: true, backwardStutter: true, forwardStutter: true };
    const poi = person({ D3S1358: ['15', '16'], D8S1179: ['12', '13'] });
    const victim = person({ D3S1358: ['17', '17'], D8S1179: ['14', '14'] });
    const hp = fitHypothesis(prepareHypothesis(e, { contributors: [poi, victim], nonContributors: [] }, roles), switches, 4, 1);
    const hd = fitHypothesis(prepareHypothesis(e, { contributors: [victim, null], nonContributors: [poi] }, roles), switches, 4, 1);
    // calcMLE: loglik −125.324595114 (Hp), −129.775694988 (Hd); Hp's Mx 0.8080015/0.1919985, μ 1440.086, σ 0.1884685, β 0.7515962, ξB 0.07527023, ξF 0.03800120.
    expect(Math.abs(hp.logLikelihood!.total - -125.324595114)).toBeLessThan(1e-8);
    expect(Math.abs(hd.logLikelihood!.total - -129.775694988)).toBeLessThan(1e-8);
    const p = hp.parameters!;
    [[p.mx[0]!, 0.8080015], [p.mu, 1440.086], [p.sigma, 0.1884685], [p.beta, 0.7515962], [p.xiB, 0.07527023], [p.xiF, 0.0380012]].forEach(([ours, theirs]) => expect(Math.abs(ours! / theirs! - 1)).toBeLessThan(1e-5));
    expect(hd.parameters!.mx[1]).toBeCloseTo(0.8080015, 5);
  });
});
