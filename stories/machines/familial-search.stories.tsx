/**
 * Every state of the familial search panel a user can reach (machines/familialSearch), drawn from a
 * resolved snapshot (no network) with the real form, candidate list, promotion result and failure.
 * "Interactive" runs the machine with fake calls: the first search fails, Try again answers after a
 * second; promoting the brother succeeds, anyone else is skipped.
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useMemo } from 'react';
import { fromPromise, type StateValue } from 'xstate';
import type { FamilialCandidate, FamilialPromoteAnswer, FamilialSearchAnswer, FamilialSearchOptions } from '../../core/schemas/familial-search';
import { familialSearchMachine, type FamilialPromoteInput, type FamilialSearchContext, type FamilialSearchInput, type FamilialSearchRequest } from '../../machines/familialSearch.machine';
import { FamilialFailure } from '../../src/familial-search/familial-failure';
import { FamilialResults } from '../../src/familial-search/familial-results';
import { FamilialSearchActor } from '../../src/familial-search/familial-search-actor';
import { FamilialSearchForm } from '../../src/familial-search/familial-search-form';
import { PromotedHits } from '../../src/familial-search/promoted-hits';
import '../../src/familial-search/familial-search.css';
import { StoryRouter } from '../app/story-router';

const ORG = '5b1f7c2a-3d4e-4f5a-9b6c-7d8e9f0a1b2c';
const PROFILE = '6c2a8d3b-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const CAUCASIAN = '2c9e3f4a-5b6c-4d7e-8f80-91a2b3c4d5e6';
const SYNTHETIC = '3d0f4a5b-6c7d-4e8f-9a01-b2c3d4e5f6a7';
const RULE = '0d6f8b4a-1c2e-4f3a-8b5c-7d9e0f1a2b3c';
const OPTIONS: FamilialSearchOptions = {
  rules: [
    { id: RULE, name: 'Familial search of offenders and arrestees (full siblings)', analysisId: '1b8d2e3f-4a5b-4c6d-9e7f-8091a2b3c4d5', analysisName: 'Full siblings', searchedSampleTypes: ['Convicted Offender', 'Arrestee'], defaultPopulationIds: [CAUCASIAN] },
    { id: '7e3b9c4d-5f6a-4b7c-8d9e-0f1a2b3c4d5e', name: 'Familial search of offenders and arrestees (parent–child)', analysisId: '8f4cad5e-6a7b-4c8d-9e0f-1a2b3c4d5e6f', analysisName: 'Parent–child', searchedSampleTypes: ['Convicted Offender', 'Arrestee'], defaultPopulationIds: [CAUCASIAN] },
  ],
  populations: [
    { id: CAUCASIAN, name: 'FBI 2015 Caucasian', synthetic: false },
    { id: SYNTHETIC, name: 'Synthetic demo population', synthetic: true },
  ],
};
const REQUEST: FamilialSearchRequest = { searchRuleId: RULE, populationIds: [CAUCASIAN, SYNTHETIC], limit: 50 };
const N = 412_530;
const candidate = (rank: number, sampleName: string, sampleType: string, log10: number, pValue: number, alreadyHit = false): FamilialCandidate => ({
  rank,
  profileId: `4e1a5b6c-7d8e-4f90-a1b2-c3d4e5f6a7${String(rank).padStart(2, '0')}`,
  sampleName,
  caseId: '9a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d',
  caseNumber: `OFF-${1000 + rank}`,
  sampleType,
  populations: [CAUCASIAN, SYNTHETIC].map((populationId, i) => {
    const l = log10 - 0.3 * i;
    const p = Math.min(1, pValue * 10 ** (0.3 * i));
    return { populationId, combinedIndex: 10 ** l, log10: l, markerCount: 20, probability: `99.99% (CI ${(10 ** l).toExponential(2)})`, pValue: p, pValueBracket: { lower: p * 0.95, upper: p }, expectedChanceCandidates: N * p };
  }),
  smallestCombinedIndex: 10 ** (log10 - 0.3),
  reportedPopulationId: SYNTHETIC,
  alreadyHit,
});
const ANSWER: FamilialSearchAnswer = {
  rule: { id: RULE, name: OPTIONS.rules[0]!.name },
  analysis: { id: OPTIONS.rules[0]!.analysisId, name: 'Full siblings' },
  populations: OPTIONS.populations,
  searchedProfiles: N,
  limit: 50,
  candidates: [
    candidate(1, 'OFF-BROTHER', 'Convicted Offender', 9.1, 1.4e-11),
    candidate(2, 'ARR-0193', 'Arrestee', 4.2, 2.1e-6, true),
    candidate(3, 'OFF-55120', 'Convicted Offender', 3.7, 8.4e-6),
    candidate(4, 'OFF-20871', 'Convicted Offender', 3.5, 1.3e-5),
  ],
};
const PROMOTED: FamilialPromoteAnswer = {
  hits: [{ id: '5f2a6b7c-8d9e-4f0a-b1c2-d3e4f5a6b7c8', candidateId: ANSWER.candidates[0]!.profileId, sampleName: 'OFF-BROTHER', caseNumber: 'OFF-1001', combinedIndex: 10 ** 8.8, probability: '99.99% (CI 6.31e+8)', populationId: SYNTHETIC }],
  skipped: [{ candidateId: ANSWER.candidates[2]!.profileId, sampleName: 'OFF-55120', reason: 'Already a hit (rejected)' }],
};
const BASE: FamilialSearchContext = { profileId: PROFILE, request: null, answer: null, selected: [], promoted: null, error: null, failedCall: null };

/** The panel as the profile view shows it, under the machine's actor. */
function Panel() {
  const promoted = FamilialSearchActor.useSelector((s) => s.matches('promoted'));
  const value = FamilialSearchActor.useSelector((s) => JSON.stringify(s.value));
  return (
    <StoryRouter path={`/${ORG}/cases/x/profiles/${PROFILE}`}>
      <section className="familial-search page" style={{ margin: '1rem' }}>
        <h2>Familial search</h2>
        <p className="field__hint">
          Machine state: <strong>{value}</strong>
        </p>
        <FamilialSearchForm options={OPTIONS} />
        <FamilialFailure />
        {promoted ? <PromotedHits orgId={ORG} /> : <FamilialResults orgId={ORG} />}
      </section>
    </StoryRouter>
  );
}

/** The panel in one state of the machine; the calls never answer (see Interactive). */
function FamilialState({ value, context }: { value: StateValue; context: Partial<FamilialSearchContext> }) {
  const snapshot = familialSearchMachine.resolveState({ value, context: { ...BASE, ...context } });
  const logic = useMemo(
    () =>
      familialSearchMachine.provide({
        actors: {
          search: fromPromise<FamilialSearchAnswer, FamilialSearchInput>(() => new Promise(() => undefined)),
          promote: fromPromise<FamilialPromoteAnswer, FamilialPromoteInput>(() => new Promise(() => undefined)),
        },
      }),
    [],
  );
  return (
    <FamilialSearchActor.Provider logic={logic} options={{ snapshot, input: { profileId: PROFILE } }}>
      <Panel />
    </FamilialSearchActor.Provider>
  );
}

function InteractiveFamilialSearch() {
  const logic = useMemo(() => {
    let searches = 0;
    return familialSearchMachine.provide({
      actors: {
        search: fromPromise(async () => {
          await new Promise((resolve) => setTimeout(resolve, 1000));
          if (++searches === 1) throw { status: 503, serverMessage: 'The database search is not running on this server, so a familial search cannot be made. Try again later.' };
          return ANSWER;
        }),
        promote: fromPromise(async ({ input }: { input: FamilialPromoteInput }) => {
          await new Promise((resolve) => setTimeout(resolve, 800));
          const brother = ANSWER.candidates[0]!.profileId;
          return {
            hits: input.body.candidateIds.includes(brother) ? PROMOTED.hits : [],
            skipped: input.body.candidateIds.filter((id) => id !== brother).map((candidateId) => ({ candidateId, sampleName: ANSWER.candidates.find((c) => c.profileId === candidateId)?.sampleName ?? null, reason: 'Already a hit (rejected)' })),
          };
        }),
      },
    });
  }, []);
  return (
    <FamilialSearchActor.Provider logic={logic} options={{ input: { profileId: PROFILE } }}>
      <Panel />
    </FamilialSearchActor.Provider>
  );
}

const meta = { title: 'Machines/Familial search', component: FamilialState, args: { context: {} } } satisfies Meta<typeof FamilialState>;
export default meta;
type Story = StoryObj<typeof meta>;

/** editing: the rule, the populations (the synthetic one labelled) and top N; nothing searched yet. */
export const Editing: Story = { args: { value: 'editing' } };
/** running: the form locked, Searching…, Cancel. */
export const Running: Story = { args: { value: 'running', context: { request: REQUEST } } };
/** results: the ranked list with each population's LR, p-value and the chance candidates expected at that rank; a hit already is marked. */
export const Results: Story = { args: { value: 'results', context: { request: REQUEST, answer: ANSWER } } };
/** results with two candidates ticked: Promote to pending hits (2). */
export const ResultsTicked: Story = { args: { value: 'results', context: { request: REQUEST, answer: ANSWER, selected: [ANSWER.candidates[0]!.profileId, ANSWER.candidates[2]!.profileId] } } };
/** results with no candidate. */
export const NoCandidates: Story = { args: { value: 'results', context: { request: REQUEST, answer: { ...ANSWER, candidates: [] } } } };
/** promoting: the list and the ticks locked while the server records the hits. */
export const Promoting: Story = { args: { value: 'promoting', context: { request: REQUEST, answer: ANSWER, selected: [ANSWER.candidates[0]!.profileId, ANSWER.candidates[2]!.profileId] } } };
/** promoted: the hit created (a link to HitView) and the candidate skipped, with why. */
export const Promoted: Story = { args: { value: 'promoted', context: { request: REQUEST, answer: ANSWER, promoted: PROMOTED } } };
/** failed (search): the server's message, Try again and Dismiss. */
export const SearchFailed: Story = { args: { value: 'failed', context: { request: REQUEST, failedCall: 'search', error: { status: 400, message: 'Search rule Familial search runs on approval; a familial search runs a rule that runs on request' } } } };
/** failed (promotion): the message above the list, the ticks kept. */
export const PromotionFailed: Story = { args: { value: 'failed', context: { request: REQUEST, answer: ANSWER, selected: [ANSWER.candidates[0]!.profileId], failedCall: 'promote', error: { status: 0, message: 'Your request failed. Please try again later.' } } } };

export const Interactive: Story = { args: { value: 'editing' }, render: () => <InteractiveFamilialSearch /> };
