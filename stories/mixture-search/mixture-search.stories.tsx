/**
 * Every state of the mixture search page a user can reach (machines/mixtureSearch), drawn from a resolved snapshot
 * (no network) with the real form, failure and ranked list. "Interactive" runs the machine with fake calls: the
 * first search is refused at θ and the populations, Try again answers after a second.
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useMemo } from 'react';
import { fromPromise, type StateValue } from 'xstate';
import type { MixtureSearchAnswer, MixtureSearchBody } from '../../core/schemas/mixtures';
import { GENERIC_FAILURE } from '../../machines/recordEditor.machine';
import { initialSearchContext, mixtureSearchMachine, searchRequest, toSearchError, type MixtureSearchContext, type MixtureSearchInput } from '../../machines/mixtureSearch.machine';
import type { CalculatorCalls } from '../../src/analyses/calculator-api';
import { MixtureSearchActor } from '../../src/mixture-search/mixture-search-actor';
import { MixtureSearchScreen } from '../../src/mixture-search/mixture-search-page';
import '../../src/analyses/calculator.css';
import '../../src/mixture-search/mixture-search.css';
import { StoryRouter } from '../app/story-router';
import { MIXTURE_CASE, MIXTURE_ORG, SEARCH_ANALYSES, SEARCH_ANSWER, SEARCH_EVIDENCE, SEARCH_POPULATIONS, SEARCH_PROFILES } from './mixture-search-fixtures';

const INPUT: MixtureSearchInput = { organizationId: MIXTURE_ORG, evidence: SEARCH_EVIDENCE, analyses: SEARCH_ANALYSES };
const BASE = initialSearchContext(INPUT);
const THREE = SEARCH_ANALYSES[1]!;
const POPULATION_IDS = SEARCH_POPULATIONS.map((p) => p.id);

/** The form as the answer's search sent it: a second replicate, typed alleles of a third, the victim, both populations. */
const FILLED: Partial<MixtureSearchContext> = {
  analysisId: THREE.id,
  parameters: { ...BASE.parameters, contributors: '3', dropoutEach: ['', '', ''] },
  replicates: [
    { source: 'stored', profile: SEARCH_PROFILES.replicate },
    { source: 'typed', alleles: { D3S1358: '14, 15, 17', vWA: '16, 18', TH01: '6, 9.3' } },
  ],
  knownContributors: [{ source: 'stored', profile: SEARCH_PROFILES.victim }],
  populationIds: POPULATION_IDS,
};
const REQUEST: MixtureSearchBody = searchRequest({ ...BASE, ...FILLED });

/** The pickers' profiles: those whose sample name holds what was typed. */
const CALLS = {
  calculator: {
    profiles: async (_org: string, _case: string | null, _kind: string, search: string) => {
      const items = Object.values(SEARCH_PROFILES).filter((p) => p.profileId.includes(search.trim()));
      return { items, count: items.length };
    },
  } as unknown as CalculatorCalls,
};

function Page() {
  const value = MixtureSearchActor.useSelector((s) => JSON.stringify(s.value));
  return (
    <StoryRouter path={`/${MIXTURE_ORG}/cases/${MIXTURE_CASE}/profiles/${SEARCH_EVIDENCE.id}/mixture-search`}>
      <section className="page" style={{ margin: '1rem' }}>
        <h1>Mixture search</h1>
        <p className="field__hint">
          Machine state: <strong>{value}</strong>
        </p>
        <MixtureSearchScreen orgId={MIXTURE_ORG} populations={SEARCH_POPULATIONS} calls={CALLS} />
      </section>
    </StoryRouter>
  );
}

/** The page in one state of the machine; the search never answers (see Interactive). */
function MixtureSearchState({ value, context }: { value: StateValue; context: Partial<MixtureSearchContext> }) {
  const snapshot = mixtureSearchMachine.resolveState({ value, context: { ...BASE, ...context } });
  const logic = useMemo(() => mixtureSearchMachine.provide({ actors: { search: fromPromise<MixtureSearchAnswer, MixtureSearchBody>(() => new Promise(() => undefined)) } }), []);
  return (
    <MixtureSearchActor.Provider logic={logic} options={{ snapshot, input: INPUT }}>
      <Page />
    </MixtureSearchActor.Provider>
  );
}

/** A 400 as the API client rejects with: the message and two field details. */
const REFUSAL = Object.assign(new Error('POST /api/mixture-search failed with status 400'), {
  status: 400,
  serverMessage: 'Your request was denied. Please validate your input.',
  body: {
    error: 'Your request was denied. Please validate your input.',
    details: [
      { path: '/setting/theta', message: 'Below 1' },
      { path: '/populationIds', message: 'At most 10 populations at once' },
    ],
  },
});

function InteractiveMixtureSearch() {
  const logic = useMemo(() => {
    let searches = 0;
    return mixtureSearchMachine.provide({
      actors: {
        search: fromPromise<MixtureSearchAnswer, MixtureSearchBody>(async () => {
          await new Promise((resolve) => setTimeout(resolve, 1000));
          if (++searches === 1) throw REFUSAL;
          return SEARCH_ANSWER;
        }),
      },
    });
  }, []);
  return (
    <MixtureSearchActor.Provider logic={logic} options={{ input: { ...INPUT, populationIds: POPULATION_IDS } }}>
      <Page />
    </MixtureSearchActor.Provider>
  );
}

const meta = { title: 'Mixture search/Mixture search page', component: MixtureSearchState, args: { context: {} } } satisfies Meta<typeof MixtureSearchState>;
export default meta;
type Story = StoryObj<typeof meta>;

/** editing: opened from STAIN-1, the first mixture analysis and its parameters, the reference sample types; nothing searched yet. */
export const Editing: Story = { args: { value: 'editing' } };
/** editing: a stored and a typed replicate, the victim as known contributor, drop-out fixed per contributor (candidate, known contributor, unknown). */
export const EditingReplicatesAndFixedDropout: Story = {
  args: { value: 'editing', context: { ...FILLED, parameters: { ...BASE.parameters, contributors: '3', dropout: 'each', dropoutEach: ['0.1', '0.05', '0.2'] } } },
};
/** editing after Search with something missing: each field says what, and the list above Search names them all. */
export const EditingBlocked: Story = {
  args: {
    value: 'editing',
    context: { showBlockers: true, replicates: [{ source: 'stored', profile: null }, { source: 'typed', alleles: {} }], parameters: { ...BASE.parameters, theta: '1.5' }, sampleTypes: [], limit: '0' },
  },
};
/** running: the form locked, Searching…, Cancel. */
export const Running: Story = { args: { value: 'running', context: { ...FILLED, request: REQUEST } } };
/** results: Hp and Hd, the drop-out used per population, N searched (showing the first 3), the ranked list with LR, log10 LR, p-value and markers per population. */
export const Results: Story = { args: { value: 'results', context: { ...FILLED, request: REQUEST, answer: SEARCH_ANSWER } } };
/** results with no candidate. */
export const NoCandidates: Story = { args: { value: 'results', context: { ...FILLED, request: REQUEST, answer: { ...SEARCH_ANSWER, truncated: false, candidates: [] } } } };
/** failed: the server's message, its field messages at θ and the populations, Try again and Dismiss; every value kept. */
export const Failed: Story = { args: { value: 'failed', context: { ...FILLED, request: REQUEST, error: toSearchError(REFUSAL, 'conservative') } } };
/** failed with no response: the general message only. */
export const FailedNoResponse: Story = { args: { value: 'failed', context: { ...FILLED, request: REQUEST, error: { status: 0, message: GENERIC_FAILURE, fields: {}, other: [] } } } };

export const Interactive: Story = { args: { value: 'editing' }, render: () => <InteractiveMixtureSearch /> };
