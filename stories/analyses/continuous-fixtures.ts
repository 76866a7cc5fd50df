/**
 * A continuous (peak-height) calculation for stories and tests (issue 31): a two-person stain typed twice at D3S1358
 * and TH01 with heights, its kit's bins and thresholds, and an answer of POST continuous-lr in its shape (fitted
 * parameters, deconvolution, validation). Figures are illustrative, not weighed.
 */
import type { ContinuousLrResult } from '../../core/schemas/continuous';
import type { KitAlleles } from '../../core/schemas/kit-bins';
import type { ProfileWithMarkers } from '../../core/schemas/profiles';
import type { LoadedStain } from '../../machines/continuousRun.machine';

export const CONTINUOUS_ANALYSIS_ID = '7d3b2c74-ac5e-4b20-9c73-8e2f4b9d1a32';
export const STAIN_ID = 'e5f60718-2a3b-4c4d-8e5f-60718293a4b5';
export const SUSPECT_ID = 'f6071829-3b4c-4d5e-9f60-718293a4b5c6';
export const VICTIM_ID = '07182930-4c5d-4e6f-a071-8293a4b5c6d7';
export const POPULATION_ID = '18293a4b-5d6e-4f70-8182-93a4b5c6d7e8';
const CHEMISTRY_ID = '293a4b5c-6e7f-4081-9293-a4b5c6d7e8f9';
const D3 = '3a4b5c6d-7f80-4192-a3a4-b5c6d7e8f90a';
const TH01 = '4b5c6d7e-8091-42a3-b4b5-c6d7e8f90a1b';

const peak = (allele: string, height: number | null, size: number) => ({ allele, height, size, sizeSource: 'kit' as const, belowThreshold: height !== null && height < 50 });

export const STAIN_PROFILE = {
  id: STAIN_ID,
  version: 1,
  profileId: 'STAIN-07',
  kind: 'Autosomal',
  status: 'approved',
  caseId: '5c6d7e8f-9102-43b4-85c6-d7e8f90a1b2c',
  caseNumber: 'OSL-31',
  organizationId: '6d7e8f90-a213-44c5-96d7-e8f90a1b2c3d',
  chemistryId: CHEMISTRY_ID,
  chemistryName: 'PowerPlex ESX 17',
  sampleType: 'Forensic Mixture',
  markerValues: [],
  replicates: [
    {
      name: 'STAIN-07 run 1',
      markers: [
        { markerId: D3, marker: 'D3S1358', peaks: [peak('14', 420, 107.6), peak('15', 1510, 111.6), peak('16', 1450, 115.6), peak('17', 390, 119.6)] },
        { markerId: TH01, marker: 'TH01', peaks: [peak('6', 1700, 156.4), peak('9.3', 1640, 170.1), peak('7', 45, 160.4)] },
      ],
    },
    {
      name: 'STAIN-07 run 2',
      markers: [
        { markerId: D3, marker: 'D3S1358', peaks: [peak('14', 380, 107.6), peak('15', 1390, 111.6), peak('16', 1500, 115.6), peak('17', 430, 119.6)] },
        { markerId: TH01, marker: 'TH01', peaks: [peak('6', 1580, 156.4), peak('9.3', 1720, 170.1)] },
      ],
    },
  ],
} as unknown as ProfileWithMarkers;

export const STAIN_KIT: KitAlleles = {
  chemistryId: CHEMISTRY_ID,
  version: 3,
  markers: [
    { markerId: D3, marker: 'D3S1358', dye: 'blue', repeatLength: 4, sizeOffset: 51.6, alleles: ['14', '15', '16', '17', '18'].map((allele, i) => ({ allele, size: 107.6 + 4 * i, virtual: false })) },
    { markerId: TH01, marker: 'TH01', dye: 'green', repeatLength: 4, sizeOffset: 132.4, alleles: [{ allele: '6', size: 156.4, virtual: false }, { allele: '7', size: 160.4, virtual: false }, { allele: '9.3', size: 170.1, virtual: false }] },
  ],
  thresholds: { kit: 50, dyes: { green: 60 } },
};

export const LOADED_STAIN: LoadedStain = { profile: STAIN_PROFILE, kit: STAIN_KIT };

/** A stain imported without heights: nothing for the continuous model. */
export const STAIN_WITHOUT_HEIGHTS: LoadedStain = {
  profile: { ...STAIN_PROFILE, profileId: 'STAIN-08', replicates: [{ name: 'STAIN-08', markers: [{ markerId: D3, marker: 'D3S1358', peaks: [peak('15', null, 111.6)] }] }] } as ProfileWithMarkers,
  kit: STAIN_KIT,
};

const fit = (agreeing: number) => ({ seed: 1, starts: 4, agreeing, converged: true, iterations: 41, evaluations: 388, note: null });
const validation = (shift: number) => ({
  peaks: [
    ['D3S1358', 1, '14', 420, 0.41],
    ['D3S1358', 1, '15', 1510, 0.62],
    ['D3S1358', 1, '16', 1450, 0.55],
    ['D3S1358', 1, '17', 390, 0.33],
    ['TH01', 1, '6', 1700, 0.71],
    ['TH01', 1, '9.3', 1640, 0.66],
    ['D3S1358', 2, '14', 380, 0.29],
    ['D3S1358', 2, '15', 1390, 0.44],
    ['D3S1358', 2, '16', 1500, 0.6],
    ['D3S1358', 2, '17', 430, 0.45],
    ['TH01', 2, '6', 1580, 0.52],
    ['TH01', 2, '9.3', 1720, 0.81],
  ].map(([marker, replicate, allele, height, cumulative]) => ({ marker: marker as string, replicate: replicate as number, allele: allele as string, height: height as number, cumulative: Math.min(0.999, (cumulative as number) + shift) })),
  expected: [
    { marker: 'D3S1358', allele: '14', observed: [420, 380], expected: 405 },
    { marker: 'D3S1358', allele: '15', observed: [1510, 1390], expected: 1460 },
    { marker: 'D3S1358', allele: '16', observed: [1450, 1500], expected: 1460 },
    { marker: 'D3S1358', allele: '17', observed: [390, 430], expected: 405 },
    { marker: 'D3S1358', allele: 'Q', observed: [null, null], expected: 0 },
    { marker: 'TH01', allele: '6', observed: [1700, 1580], expected: 1650 },
    { marker: 'TH01', allele: '9.3', observed: [1640, 1720], expected: 1650 },
    { marker: 'TH01', allele: 'Q', observed: [null, null], expected: 0 },
  ],
});
const parameters = { mx: [0.78, 0.22], mu: 1866.4, sigma: 0.081, beta: 1, xiB: 0, xiF: 0 };

export const CONTINUOUS_RESULT: ContinuousLrResult = {
  precision: 'Every weight in double precision (EuroForMix keeps combination weights in single precision).',
  settings: {
    contributors: 2,
    mode: 'fit',
    model: { degradation: false, backwardStutter: false, forwardStutter: false },
    theta: 0.01,
    dropIn: 0.05,
    dropInLambda: 0.01,
    analyticalThreshold: 50,
    normalizeFrequencies: false,
    personOfInterestTypedUnderHd: true,
    population: { id: POPULATION_ID, name: 'Norway (ESX 17)', minimumAlleleFrequency: 0.001 },
  },
  hypotheses: [
    {
      hypothesis: 'Hp',
      description: 'The person of interest and 1 unknown',
      contributors: ['Person of interest', 'Unknown 1'],
      parameters,
      logLikelihood: -118.204,
      fit: fit(4),
      note: null,
      deconvolution: [
        { contributor: 'Unknown 1', marker: 'D3S1358', genotypes: [{ alleles: ['14', '17'], probability: 0.982 }, { alleles: ['14', '14'], probability: 0.011 }] },
        { contributor: 'Unknown 1', marker: 'TH01', genotypes: [{ alleles: ['6', '9.3'], probability: 0.41 }, { alleles: ['6', '6'], probability: 0.3 }] },
      ],
      validation: validation(0),
    },
    {
      hypothesis: 'Hd',
      description: '2 unknowns',
      contributors: ['Unknown 1', 'Unknown 2'],
      parameters: { ...parameters, mx: [0.781, 0.219] },
      logLikelihood: -131.977,
      fit: fit(3),
      note: null,
      deconvolution: [
        { contributor: 'Unknown 1', marker: 'D3S1358', genotypes: [{ alleles: ['15', '16'], probability: 0.995 }, { alleles: ['15', '17'], probability: 0.003 }] },
        { contributor: 'Unknown 2', marker: 'D3S1358', genotypes: [{ alleles: ['14', '17'], probability: 0.981 }] },
      ],
      validation: validation(0.02),
    },
  ],
  markers: [
    { marker: 'D3S1358', alleles: ['14', '15', '16', '17', 'Q'], frequencies: [0.12, 0.27, 0.24, 0.2, 0.17], fragmentSizes: null, analyticalThreshold: 50, logLikelihoodHp: -60.1, logLikelihoodHd: -66.9, log10Lr: 2.953, lr: 897.8 },
    { marker: 'TH01', alleles: ['6', '9.3', 'Q'], frequencies: [0.21, 0.33, 0.46], fragmentSizes: null, analyticalThreshold: 60, logLikelihoodHp: -58.104, logLikelihoodHd: -65.077, log10Lr: 3.028, lr: 1067.3 },
  ],
  skippedMarkers: [{ marker: 'AMEL', reason: 'no allele frequencies for AMEL in Norway (ESX 17)' }],
  log10Lr: 5.981,
  lr: 957_700,
  note: null,
  contributorSearch: null,
};

/** A fit no parameters could make explain the stain: a result with its reason, no LR. */
export const FAILED_FIT_RESULT: ContinuousLrResult = {
  ...CONTINUOUS_RESULT,
  hypotheses: [
    { ...CONTINUOUS_RESULT.hypotheses[0]!, parameters: null, logLikelihood: null, fit: { ...fit(0), converged: false, note: 'No start reached a finite likelihood' }, note: 'No parameters explain the evidence with the person of interest as a contributor: D3S1358 shows 4 alleles the person of interest and 1 unknown cannot all explain without drop-in.', deconvolution: [], validation: null },
    CONTINUOUS_RESULT.hypotheses[1]!,
  ],
  markers: CONTINUOUS_RESULT.markers.map((m) => ({ ...m, logLikelihoodHp: null, log10Lr: null, lr: null })),
  log10Lr: null,
  lr: null,
  note: 'Hp: no parameters explain the evidence.',
};
