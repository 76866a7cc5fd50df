/**
 * The analysis editor (src/admin/analyses/analysis-edit.tsx) for pedigree analyses, pairwise analyses that weigh
 * mutation and mixture analyses, over fake calls answering from the fixtures below (the seed's 'Missing persons' and
 * 'Mixtures' shapes).
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import { MIXTURE_ROLES, type Analysis, type AnalysisPedigree } from '../../core/schemas/analyses';
import type { MixtureSetting } from '../../core/schemas/mixtures';
import type { PedigreePersonInput } from '../../core/schemas/pedigrees';
import { ApiError } from '../../src/api/middleware/api-error';
import { AnalysisEditView, type AnalysisEditViewProps } from '../../src/admin/analyses/analysis-edit';
import { StoryRouter } from '../app/story-router';
import { OSLO } from '../app/story-users';

const GROUP = '40000000-0000-4000-8000-000000000001';
const id = (n: number) => `50000000-0000-4000-8000-00000000000${n}`;

type Person = PedigreePersonInput;
const founder = (name: string, sex: Person['sex']): Person => ({ id: name, sex });
const child = (name: string, sex: Person['sex'], father: string, mother: string): Person => ({ id: name, sex, father, mother });
const MP = 'Missing person';
const STEPWISE = {
  female: { model: 'stepwise' as const, rate: 0.001, rate2: 0.00001, range: 0.1 },
  male: { model: 'stepwise' as const, rate: 0.003, rate2: 0.00001, range: 0.1 },
  markers: [],
};

const analysis = (n: number, over: Partial<Analysis> & { pedigree: AnalysisPedigree | null }): Analysis => ({
  id: id(n),
  analysisGroupId: GROUP,
  analysisGroupName: 'Missing persons',
  version: 1,
  name: 'Mother and full sister',
  label: 'Missing person tested against the mother and a full sister',
  kind: 'Pedigree',
  profileKind: 'Autosomal',
  roles: [MP, 'Mother', 'Full sister'],
  threshold: 10_000,
  active: true,
  formulaCount: 0,
  constantCount: 0,
  missingPatterns: [],
  mixture: null,
  mutation: STEPWISE,
  ...over,
});

const ANALYSES: Analysis[] = [
  analysis(1, {
    pedigree: {
      persons: [founder('Father', 'male'), founder('Mother', 'female'), child(MP, 'male', 'Father', 'Mother'), child('Full sister', 'female', 'Father', 'Mother')],
      target: MP,
      alternative: null,
    },
  }),
  analysis(2, {
    name: 'Half-brother and uncle',
    label: 'Missing person tested against a paternal half-brother and a paternal uncle',
    roles: [MP, 'Paternal half-brother', 'Paternal uncle'],
    pedigree: {
      persons: [
        founder('Paternal grandfather', 'male'),
        founder('Paternal grandmother', 'female'),
        child('Father', 'male', 'Paternal grandfather', 'Paternal grandmother'),
        child('Paternal uncle', 'male', 'Paternal grandfather', 'Paternal grandmother'),
        founder('Mother', 'female'),
        founder("Half-brother's mother", 'female'),
        child(MP, 'male', 'Father', 'Mother'),
        child('Paternal half-brother', 'male', 'Father', "Half-brother's mother"),
      ],
      target: MP,
      alternative: null,
    },
  }),
  analysis(3, {
    name: 'Sister or half-sister',
    label: 'H2 drawn out: the sister shares only the mother',
    roles: [MP, 'Sister'],
    pedigree: {
      persons: [founder('Father', 'male'), founder('Mother', 'female'), child(MP, 'male', 'Father', 'Mother'), child('Sister', 'female', 'Father', 'Mother')],
      target: MP,
      alternative: [founder('Father', 'male'), founder('Other father', 'male'), founder('Mother', 'female'), child(MP, 'male', 'Father', 'Mother'), child('Sister', 'female', 'Other father', 'Mother')],
    },
    mutation: {
      female: { model: 'custom', matrix: [[0.998, 0.002], [0.002, 0.998]] },
      male: { model: 'equal', rate: 0.002 },
      markers: [{ marker: 'D21S11', female: { model: 'stepwise', rate: 0.002, rate2: 0.0001, range: 0.5 }, male: { model: 'stepwise', rate: 0.004, rate2: 0.0001, range: 0.5 } }],
    },
  }),
  analysis(4, {
    name: 'Parent–child',
    label: 'One parent and a child',
    kind: 'Computational',
    roles: ['Child', 'Alleged parent'],
    threshold: 1000,
    formulaCount: 6,
    constantCount: 3,
    pedigree: { persons: [founder('Alleged parent', 'male'), founder('Mother', 'female'), child('Child', 'male', 'Alleged parent', 'Mother')], target: 'Alleged parent', alternative: null },
    mutation: null,
  }),
  analysis(5, {
    name: 'Mixture, 2 contributors',
    label: 'Semi-continuous LR (drop-out, drop-in, θ) of a 2-person mixture',
    analysisGroupName: 'Mixtures',
    kind: 'Mixture',
    roles: [...MIXTURE_ROLES],
    pedigree: null,
    mutation: null,
    mixture: { contributors: 2, dropout: { mode: 'estimated', estimate: 'conservative' }, dropIn: 0.05, theta: 0.01, personOfInterestTypedUnderHd: true, normalizeFrequencies: false },
  }),
];
const [SISTER, HALF_BROTHER, DRAWN_H2, PARENT_CHILD, MIXTURE] = ANALYSES as [Analysis, Analysis, Analysis, Analysis, Analysis];
/** Three contributors, each with the laboratory's own fixed drop-out (person of interest, then known contributor or unknowns). */
const FIXED_PER_CONTRIBUTOR: MixtureSetting = { ...MIXTURE.mixture!, contributors: 3, dropout: { mode: 'fixed', values: [0.05, 0.1, 0.25] }, normalizeFrequencies: true };

const never = () => new Promise<never>(() => undefined);
const empty = async () => ({ items: [], count: 0 });
const calls = (over: Partial<AnalysisEditViewProps['calls']> = {}): AnalysisEditViewProps['calls'] => ({
  get: async (analysisId) => ANALYSES.find((a) => a.id === analysisId) ?? SISTER,
  add: async (body) => ({ ...SISTER, ...body, id: id(9), pedigree: body.pedigree ?? null, mutation: body.mutation ?? null, mixture: body.mixture ?? null }),
  update: async (analysisId, body) => ({ ...(ANALYSES.find((a) => a.id === analysisId) ?? SISTER), ...body, version: body.version + 1 }) as Analysis,
  remove: async () => undefined,
  formulae: empty,
  constants: empty,
  ...over,
});

/** What the server answers to a pedigree in which someone is their own ancestor (server/http/analyses/pedigree-checks.ts). */
const loop = new ApiError(
  400,
  { error: 'Missing person is their own ancestor in the pedigree.', details: [{ path: '/pedigree', message: 'Missing person is their own ancestor in the pedigree.' }] },
  'PUT',
  '/api/analyses',
);
const badDropout = new ApiError(
  400,
  { error: 'Give one drop-out for all contributors or one per contributor (3).', details: [{ path: '/mixture/dropout/values', message: '1 or 3 values' }] },
  'PUT',
  '/api/analyses',
);
const badModel = new ApiError(400, { error: 'The stepwise range must be below 1.', details: [{ path: '/mutation/male', message: 'The stepwise range must be below 1.' }] }, 'PUT', '/api/analyses');

const edit = (analysisId: string, over: Partial<AnalysisEditViewProps> = {}) => (
  <StoryRouter path={`/${OSLO}/analysis-groups/${GROUP}/analyses/${analysisId}`}>
    <div style={{ padding: '1rem' }}>
      <AnalysisEditView orgId={OSLO} analysisGroupId={GROUP} analysisId={analysisId} calls={calls()} mayAdd mayEdit mayDelete {...over} />
    </div>
  </StoryRouter>
);

const meta = { title: 'Admin/Analysis edit', parameters: { layout: 'fullscreen' } } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

/** A new analysis: choose the kind Pedigree to draw a pedigree instead of naming roles, or Mixture for its parameters. */
export const NewAnalysis: Story = { render: () => edit('new') };

/** The seed's 'Mother and full sister': four persons, three typed, stepwise models (male rate higher). */
export const MotherAndFullSister: Story = { render: () => edit(SISTER.id) };

/** Eight persons over three generations, with paternal half-siblings. */
export const HalfBrotherAndUncle: Story = { render: () => edit(HALF_BROTHER.id) };

/** H2 drawn out (kept as stored, drawn below H1), a custom female matrix shown read-only, one marker with its own models. */
export const DrawnH2AndCustomModel: Story = { render: () => edit(DRAWN_H2.id) };

/** A pairwise analysis with a pedigree: its formula table's μ and A, or mutation weighed through the pedigree (tick the box). */
export const PairwiseWithPedigree: Story = { render: () => edit(PARENT_CHILD.id) };

/** The same, already weighing stepwise mutation. */
export const PairwiseWeighingMutation: Story = { render: () => edit(PARENT_CHILD.id, { calls: calls({ get: async () => ({ ...PARENT_CHILD, mutation: STEPWISE }) }) }) };

/** The seed's 'Mixture, 2 contributors': the two fixed roles, its parameters, and a note instead of formula tables. */
export const MixtureAnalysis: Story = { render: () => edit(MIXTURE.id) };

/** A three-person mixture with a fixed drop-out per contributor and normalized frequencies. */
export const MixtureFixedPerContributor: Story = { render: () => edit(MIXTURE.id, { calls: calls({ get: async () => ({ ...MIXTURE, mixture: FIXED_PER_CONTRIBUTOR }) }) }) };

/** Save answers 400 on /mixture/dropout/values: the message at the drop-out, the values kept. Press Save. */
export const ServerRefusesDropout: Story = {
  render: () => edit(MIXTURE.id, { calls: calls({ get: async () => ({ ...MIXTURE, mixture: FIXED_PER_CONTRIBUTOR }), update: () => Promise.reject(badDropout) }) }),
};

/** Save answers 400 on /pedigree: the message above the form and in the pedigree editor, the drawing kept. Press Save. */
export const ServerRefusesPedigree: Story = { render: () => edit(SISTER.id, { calls: calls({ update: () => Promise.reject(loop) }) }) };

/** Save answers 400 on /mutation/male: the message beside the male model. Press Save. */
export const ServerRefusesModel: Story = { render: () => edit(SISTER.id, { calls: calls({ update: () => Promise.reject(badModel) }) }) };

/** A user who may only read: every field disabled, no Add person, Back instead of Save. */
export const ReadOnly: Story = { render: () => edit(HALF_BROTHER.id, { mayAdd: false, mayEdit: false, mayDelete: false }) };

/** The analysis still loading. */
export const Loading: Story = { render: () => edit(SISTER.id, { calls: calls({ get: never }) }) };
