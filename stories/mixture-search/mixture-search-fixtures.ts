/**
 * A mixture search as the page and the API see it (issue 17), shared by the stories, the machine's tests and the
 * component tests: the stain STAIN-1 of case MX-3 opened from its profile, the seed's two mixture analyses, a second
 * replicate and the victim as stored profiles, two populations (one synthetic) and a ranked answer. The figures are
 * examples, consistent with one another: log10 is the LR's logarithm, the expected chance hits N × p.
 */
import type { MixtureSearchAnswer, MixtureSearchCandidate, MixtureSetting } from '../../core/schemas/mixtures';
import type { Population } from '../../core/schemas/populations';
import type { Profile } from '../../core/schemas/profiles';
import type { SearchAnalysis, SearchEvidence } from '../../machines/mixtureSearch.machine';

export const MIXTURE_ORG = '9c1d2e3f-4a5b-4c6d-8e7f-90a1b2c3d4e5';
export const MIXTURE_CASE = '9e6f0a1b-2c3d-4e45-8f60-718293a4b5c6';

const setting = (contributors: number): MixtureSetting => ({ contributors, dropout: { mode: 'estimated', estimate: 'conservative' }, dropIn: 0.05, theta: 0.01, personOfInterestTypedUnderHd: true, normalizeFrequencies: false });

/** The seed's group Mixtures, as the page offers it (active analyses, names in order). */
export const SEARCH_ANALYSES: SearchAnalysis[] = [
  { id: '7d3b2c74-0c5e-4b2a-9c73-8e2f4b9d1f31', name: 'Mixture, 2 contributors', mixture: setting(2) },
  { id: '7d3b2c74-0c5e-4b2a-9c73-8e2f4b9d1f32', name: 'Mixture, 3 contributors', mixture: setting(3) },
];

export const SEARCH_EVIDENCE: SearchEvidence = {
  id: '0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d0',
  sampleName: 'STAIN-1',
  caseNumber: 'MX-3',
  markers: ['D3S1358', 'vWA', 'D16S539', 'CSF1PO', 'TPOX', 'D8S1179', 'D21S11', 'D18S51', 'TH01', 'FGA'],
};

const profile = (id: string, profileId: string, sampleType: string): Profile => ({
  id,
  version: 1,
  profileId,
  kind: 'Autosomal',
  status: 'approved',
  caseId: MIXTURE_CASE,
  caseNumber: 'MX-3',
  organizationId: MIXTURE_ORG,
  chemistryId: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  chemistryName: 'GlobalFiler',
  sampleType,
  sampleSourceId: null,
  sampleSourceName: null,
  physicalItemId: null,
  physicalItemName: null,
  physicalItem: null,
  involvedParty: null,
  laboratoryId: null,
  laboratoryName: null,
  comments: '',
  source: 'Entered by hand',
  reviewComments: '',
  reviewedAt: '2026-03-02T10:00:00.000Z',
  reviewedBy: 'Kari Nordmann',
  enteredById: null,
  enteredBy: null,
  fourEyesReview: true,
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-02T10:00:00.000Z',
});

/** The stain itself, a second replicate of it and the victim (a known contributor). */
export const SEARCH_PROFILES = {
  evidence: profile(SEARCH_EVIDENCE.id, 'STAIN-1', 'Forensic Mixture'),
  replicate: profile('0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d2', 'STAIN-1-R2', 'Forensic Mixture'),
  victim: profile('0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d3', 'VICTIM-B', 'Victim, Known'),
} as const;

const population = (id: string, name: string, synthetic: boolean): Population => ({
  id,
  name,
  kind: 'Autosomal',
  minimumAlleleFrequency: 0.001,
  source: synthetic ? 'Generated' : 'fbi2015.csv (CSV)',
  statisticsUploadedAt: '2026-01-05T09:00:00.000Z',
  synthetic,
  organizations: [],
  statistics: { markerCount: 24, alleleCount: 412, haplotypeCount: 0, haplotypeTotal: 0, sampleSizeMin: 1036, sampleSizeMax: 1036 },
  version: 1,
  createdAt: '2026-01-05T09:00:00.000Z',
});

export const SEARCH_POPULATIONS: Population[] = [
  population('2c9e3f4a-5b6c-4d7e-8f80-91a2b3c4d5e6', 'FBI 2015 Caucasian', false),
  population('3d0f4a5b-6c7d-4e8f-9a01-b2c3d4e5f6a7', 'Synthetic demo population', true),
];
const [CAUCASIAN, SYNTHETIC] = SEARCH_POPULATIONS.map((p) => p.id) as [string, string];

const N = 412_530;
const candidate = (rank: number, sampleName: string, sampleType: string, log10: number, pValue: number): MixtureSearchCandidate => ({
  profileId: `4e1a5b6c-7d8e-4f90-a1b2-c3d4e5f6a7${String(rank).padStart(2, '0')}`,
  sampleName,
  sampleType,
  caseId: '9a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d',
  caseNumber: `OFF-${1000 + rank}`,
  results: [CAUCASIAN, SYNTHETIC].map((populationId, i) => {
    const l = log10 - 0.4 * i;
    const p = Math.min(1, pValue * 10 ** (0.4 * i));
    return { populationId, lr: 10 ** l, log10: l, markerCount: 20 - rank, pValue: p, expectedChanceHits: N * p, continuous: null };
  }),
});

/** The search of STAIN-1 with the victim as known contributor under "Mixture, 3 contributors", over both populations. */
export const SEARCH_ANSWER: MixtureSearchAnswer = {
  setting: setting(3),
  populations: [
    { populationId: CAUCASIAN, populationName: 'FBI 2015 Caucasian', synthetic: false, dropout: [0.21, 0.21, 0.21], dropoutHd: [0.21, 0.21, 0.21], dropoutHdRule: 'Both hypotheses at the conservative estimate under Hd, one value for every contributor', notEvaluated: null, continuousHd: null },
    { populationId: SYNTHETIC, populationName: 'Synthetic demo population', synthetic: true, dropout: [0.19, 0.19, 0.19], dropoutHd: [0.19, 0.19, 0.19], dropoutHdRule: 'Both hypotheses at the conservative estimate under Hd, one value for every contributor', notEvaluated: null, continuousHd: null },
  ],
  model: 'semi-continuous',
  continuous: null,
  hp: 'the candidate, 1 known contributor and 1 unknown',
  hd: '1 known contributor and 2 unknowns',
  searchedProfiles: N,
  truncated: true,
  candidates: [
    candidate(1, 'OFF-55120', 'Convicted Offender', 12.46, 2.1e-13),
    candidate(2, 'ARR-0193', 'Arrestee', 5.08, 3.4e-6),
    candidate(3, 'SUS-2231', 'Suspect, Known', 1.37, 0.021),
  ],
};

const gamma = (mx: number[]) => ({ mx, mu: 1180.5, sigma: 0.151, beta: 1, xiB: 0, xiF: 0 });
const hdFit = { parameters: gamma([0.62, 0.26, 0.12]), logLikelihood: -412.337, fit: { seed: 1, starts: 4, agreeing: 4, converged: true, iterations: 52, evaluations: 410, note: null } };
const CONTINUOUS_MODEL = { degradation: true, backwardStutter: false, forwardStutter: false };

/** The same search with the continuous model (issue 31): Hd fitted once per population, each candidate's scan LR and its full-fit LR. */
export const CONTINUOUS_SEARCH_ANSWER: MixtureSearchAnswer = {
  ...SEARCH_ANSWER,
  model: 'continuous',
  continuous: { analyticalThreshold: 50, dropInLambda: 0.01, model: CONTINUOUS_MODEL, starts: 4, seed: 1 },
  populations: SEARCH_ANSWER.populations.map((p) => ({ ...p, continuousHd: hdFit })),
  candidates: SEARCH_ANSWER.candidates.map((c) => ({
    ...c,
    results: c.results.map((r) => ({
      ...r,
      continuous: { scanLog10Lr: (r.log10 ?? 0) - 0.31, position: 1, log10Lr: r.log10, hd: hdFit.parameters, hp: gamma([0.6, 0.28, 0.12]), hpFit: hdFit.fit, logLikelihoodHp: r.log10 === null ? null : hdFit.logLikelihood + r.log10 * Math.LN10, logLikelihoodHd: hdFit.logLikelihood, model: CONTINUOUS_MODEL },
    })),
  })),
};
