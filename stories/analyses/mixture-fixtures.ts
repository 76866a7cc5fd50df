/**
 * A mixture run as the API answers it (issue 17), shared by the calculator's stories, its component tests and the
 * report tests: the seed's "Mixture, 3 contributors" with a second replicate and a known contributor (the victim),
 * drop-out estimated by maximum likelihood per hypothesis, over one population. The figures are examples, consistent
 * with one another: each marker's LR is Pr(E|Hp) / Pr(E|Hd), the total their product.
 */
import type { AnalysisResult, MarkerResult, PopulationResult } from '../../core/schemas/analyses';
import { formatHitProbability } from '../../core/probability-display';
import type { MixtureLrResult, MixtureMarkerLr, MixtureSetting } from '../../core/schemas/mixtures';
import type { RunAnalysis } from '../../machines/analysisRun.machine';

export const MIXTURE_SETTING: MixtureSetting = { contributors: 3, dropout: { mode: 'estimated', estimate: 'conservative' }, dropIn: 0.05, theta: 0.01, personOfInterestTypedUnderHd: true, normalizeFrequencies: false };

export const MIXTURE_ANALYSIS: RunAnalysis = { id: '7d3b2c74-0c5e-4b2a-9c73-8e2f4b9d1f32', kind: 'Mixture', roles: ['Evidence', 'Person of interest'], mixture: MIXTURE_SETTING };

const CASE = { caseId: '9e6f0a1b-2c3d-4e45-8f60-718293a4b5c6', caseNumber: 'MX-3' };
export const MIXTURE_SAMPLES = { evidence: 'STAIN-1', personOfInterest: 'SUSPECT-A', replicate: 'STAIN-1-R2', victim: 'VICTIM-B' } as const;
export const MIXTURE_PROFILES = [
  { id: '0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d0', sampleName: MIXTURE_SAMPLES.evidence },
  { id: '0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d1', sampleName: MIXTURE_SAMPLES.personOfInterest },
  { id: '0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d2', sampleName: MIXTURE_SAMPLES.replicate },
  { id: '0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d3', sampleName: MIXTURE_SAMPLES.victim },
] as const;

/** One weighed marker: its LR = Pr(E|Hp) / Pr(E|Hd). */
export function mixtureMarker(marker: string, seen: string[][], personOfInterest: string[], knownContributors: (string[] | null)[], lists: { explained: string[]; droppedOut?: string[]; unexplained?: string[] }, likelihoodHp: number, likelihoodHd: number): MixtureMarkerLr {
  const alleles = [...new Set(seen.flat())].sort((a, b) => Number(a) - Number(b));
  const lr = likelihoodHp / likelihoodHd;
  return {
    marker,
    alleles: [...alleles, 'other'],
    frequencies: [...alleles.map(() => 0.1), 1 - alleles.length * 0.1],
    replicates: seen,
    personOfInterest,
    knownContributors,
    explained: lists.explained,
    droppedOut: lists.droppedOut ?? [],
    unexplained: lists.unexplained ?? [],
    unknownsHp: 1,
    unknownsHd: 2,
    likelihoodHp,
    likelihoodHd,
    lr,
    log10: lr > 0 ? Math.log10(lr) : null,
  };
}

const MARKERS: MixtureMarkerLr[] = [
  mixtureMarker('D3S1358', [['14', '15', '16', '17'], ['14', '15', '17']], ['15', '16'], [['14', '17']], { explained: ['14', '15', '16', '17'] }, 2.31e-3, 4.6e-5),
  // The person of interest's 17 is seen in neither replicate (drop-out); 19 is no typed person's (drop-in or the unknown).
  mixtureMarker('vWA', [['16', '18', '19'], ['16', '18']], ['16', '17'], [['18']], { explained: ['16', '18'], droppedOut: ['17'], unexplained: ['19'] }, 4.2e-6, 3.5e-5),
  mixtureMarker('TH01', [['6', '9.3'], ['6', '9.3']], ['6'], [['9.3']], { explained: ['6', '9.3'] }, 0.0312, 0.0107),
];

const lr = MARKERS.reduce((product, m) => product * m.lr, 1);

export const MIXTURE_LR: MixtureLrResult = {
  parameters: {
    ...MIXTURE_SETTING,
    dropout: { mode: 'estimated', estimate: 'maximum-likelihood' },
    dropoutHp: [0.0812, 0.0812, 0.0812],
    dropoutHd: [0.1234, 0.1234, 0.1234],
    dropoutHdRule: 'Each hypothesis at its own maximum-likelihood drop-out, one value for every contributor',
    hp: 'the person of interest, 1 known contributor and 1 unknown',
    hd: '1 known contributor and 2 unknowns',
    population: { id: '2c9e3f4a-5b6c-4d7e-8f80-91a2b3c4d5e6', name: 'FBI 2015 Caucasian', minimumAlleleFrequency: 0.00155 },
  },
  estimates: [
    { hypothesis: 'Hp', maximumLikelihood: 0.0812, log10Likelihood: -10.91, note: null, conservative: 0.2041, observedAlleles: 9, accepted: 1874, tried: 10000, seed: 17 },
    { hypothesis: 'Hd', maximumLikelihood: 0.1234, log10Likelihood: -11.42, note: null, conservative: 0.2561, observedAlleles: 9, accepted: 1312, tried: 10000, seed: 17 },
  ],
  markers: MARKERS,
  skippedMarkers: [{ marker: 'D2S441', reason: 'the person of interest is not typed here' }],
  lr,
  log10: Math.log10(lr),
};

/** The generic rows the API derives for the chart: value = the marker's LR; a skipped marker is not evaluated. */
const markerRows: MarkerResult[] = [
  ...MARKERS.map((m) => ({ marker: m.marker, genotypes: [m.replicates[0] ?? [], m.personOfInterest], pattern: null, expression: null, latex: null, value: m.lr, log10: m.log10, isExclusion: null, notEvaluated: null })),
  { marker: 'D2S441', genotypes: [['10', '11', '14'], null], pattern: null, expression: null, latex: null, value: null, log10: null, isExclusion: null, notEvaluated: 'the person of interest is not typed here' },
];

export const MIXTURE_POPULATION: PopulationResult = {
  populationId: '2c9e3f4a-5b6c-4d7e-8f80-91a2b3c4d5e6',
  populationName: 'FBI 2015 Caucasian',
  populationSource: 'Moretti et al. (2016)',
  synthetic: false,
  markers: markerRows,
  combinedIndex: lr,
  log10: Math.log10(lr),
  probability: formatHitProbability({ combinedIndex: lr, nonExclusionMarkerCount: 0, markerCount: 0 }),
  haplotypeCount: null,
  conclusion: null,
  mixture: MIXTURE_LR,
};

export const MIXTURE_RESULT: AnalysisResult = {
  analysisId: MIXTURE_ANALYSIS.id,
  analysisName: 'Mixture, 3 contributors',
  analysisLabel: 'Semi-continuous LR (drop-out, drop-in, θ) of a 3-person mixture',
  kind: 'Mixture',
  roles: [
    { role: 'Evidence', profileId: MIXTURE_PROFILES[0].id, sampleName: MIXTURE_SAMPLES.evidence, ...CASE },
    { role: 'Person of interest', profileId: MIXTURE_PROFILES[1].id, sampleName: MIXTURE_SAMPLES.personOfInterest, ...CASE },
    { role: 'Evidence (replicate 2)', profileId: MIXTURE_PROFILES[2].id, sampleName: MIXTURE_SAMPLES.replicate, ...CASE },
    { role: 'Known contributor 1', profileId: MIXTURE_PROFILES[3].id, sampleName: MIXTURE_SAMPLES.victim, ...CASE },
  ],
  constants: [],
  missingPatterns: [],
  populations: [MIXTURE_POPULATION],
  exclusion: null,
  pedigree: null,
  mutation: null,
  computedAt: '2026-11-22T10:00:00.000Z',
};
