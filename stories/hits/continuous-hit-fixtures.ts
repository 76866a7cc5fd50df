/** A continuous mixture hit's figures (issue 31) for stories and component tests: example numbers, not a computation. */
import type { PopulationFigures } from '../../core/schemas/hit-figures';

export const FBI_ID = '2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d';
export const DEMO_ID = '3b4c5d6e-7f8a-4b9c-8d1e-2f3a4b5c6d7e';
export const CONTINUOUS_HIT_STAIN_ID = '4c5d6e7f-8a9b-4c0d-9e1f-3a4b5c6d7e8f';
export const CONTINUOUS_HIT_CANDIDATE_ID = '5d6e7f8a-9b0c-4d1e-8f2a-4b5c6d7e8f90';

const MODEL = { degradation: true, backwardStutter: true, forwardStutter: false };
const FIT = { seed: 1, starts: 4, agreeing: 4, converged: true, iterations: 57, evaluations: 412, note: null };

/** Over FBI 2015 Caucasian (reported): the full fit gives 6.20e+8; the scan at Hd's fit had found 2.57e+8. Stored with the old "CI" text. */
export const CONTINUOUS_FBI: PopulationFigures = {
  populationId: FBI_ID,
  populationName: 'FBI 2015 Caucasian',
  synthetic: false,
  combinedIndex: 6.2e8,
  log10: Math.log10(6.2e8),
  markerCount: 16,
  nonExclusionMarkerCount: null,
  probability: '99.99% (CI 6.20e+8)',
  reported: true,
  chance: { searchedProfiles: 1_000_000, thresholdLog10: 4, probability: 2e-9, probabilityBracket: { lower: 1.9e-9, upper: 2e-9 }, expectedChanceHits: 0.002, pValue: 3e-10, pValueBracket: { lower: 2.9e-10, upper: 3e-10 }, gridStep: 0.01 },
  continuous: {
    scanLog10Lr: Math.log10(2.57e8),
    position: 1,
    log10Lr: Math.log10(6.2e8),
    hd: { mx: [0.7012, 0.2988], mu: 1234.5, sigma: 0.1834, beta: 0.8123, xiB: 0.0712, xiF: 0 },
    hp: { mx: [0.6871, 0.3129], mu: 1221.8, sigma: 0.1766, beta: 0.8307, xiB: 0.0698, xiF: 0 },
    hpFit: FIT,
    // ln L Hp − ln L Hd = ln 6.2e8.
    logLikelihoodHp: -412.3817 + Math.log(6.2e8),
    logLikelihoodHd: -412.3817,
    model: MODEL,
  },
};

/** Over the synthetic demo population: no parameters explain the evidence with the candidate under Hp. */
export const CONTINUOUS_DEMO: PopulationFigures = {
  ...CONTINUOUS_FBI,
  populationId: DEMO_ID,
  populationName: 'Synthetic demo population (not for casework)',
  synthetic: true,
  combinedIndex: 8.1e9,
  log10: Math.log10(8.1e9),
  probability: '99.99% (CI 8.10e+9)',
  reported: false,
  continuous: { ...CONTINUOUS_FBI.continuous!, scanLog10Lr: Math.log10(8.1e9), log10Lr: null, hp: null, logLikelihoodHp: null, hpFit: { ...FIT, agreeing: 0, converged: false, note: 'no start reached a finite likelihood' } },
};

export const CONTINUOUS_POPULATIONS = [CONTINUOUS_FBI, CONTINUOUS_DEMO];
