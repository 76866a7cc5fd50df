/**
 * Every state of the keyboard search a user can reach, drawn from a resolved snapshot (no network)
 * with the real results table. "Interactive" runs the machine with a fake search call: the first
 * search fails, Try again answers after one second.
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import { fromPromise, type SnapshotFrom, type StateValue } from 'xstate';
import type { KeyboardSearchAnswer } from '../../core/schemas/keyboard-search';
import { keyboardSearchMachine, type KeyboardSearchContext, type KeyboardSearchEvent, type KeyboardSearchRequest } from '../../machines/keyboardSearch.machine';
import { SearchFailure } from '../../src/keyboard-search/search-failure';
import { SearchResults } from '../../src/keyboard-search/search-results';
import '../../src/keyboard-search/keyboard-search.css';

const ORG = '5b1f7c2a-3d4e-4f5a-9b6c-7d8e9f0a1b2c';
const REQUEST: KeyboardSearchRequest = {
  organizationId: ORG,
  chemistryId: '6c2a8d3b-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  markerValues: [{ markerId: '0d6f8b4a-1c2e-4f3a-8b5c-7d9e0f1a2b3c', alleles: ['15', '16'] }],
  populationIds: ['2c9e3f4a-5b6c-4d7e-8f80-91a2b3c4d5e6'],
  stringency: 'moderate',
  minMarkers: 8,
  maxMismatches: 0,
  analysisIds: ['1b8d2e3f-4a5b-4c6d-9e7f-8091a2b3c408'],
};
const result = (analysisName: string, combinedIndex: number, probability: string) => ({
  analysisId: `1b8d2e3f-4a5b-4c6d-9e7f-8091a2b3c4${analysisName.length.toString().padStart(2, '0')}`,
  analysisName,
  populationId: REQUEST.populationIds[0]!,
  populationName: 'FBI 2015 Caucasian',
  combinedIndex,
  markerCount: 13,
  nonExclusionMarkerCount: null,
  probability,
  overThreshold: true,
  synthetic: false,
  pValue: 1 / combinedIndex / 10,
  pValueBracket: { lower: 1 / combinedIndex / 11, upper: 1 / combinedIndex / 10 },
});
const LIMITS = { candidateLimit: 200, scanLimit: 256, queuePosition: 0 };
const ANSWER: KeyboardSearchAnswer = {
  truncated: false,
  candidateCount: 2,
  notShown: 0,
  ...LIMITS,
  searchedProfiles: 1_000_000,
  chance: [{ populationId: REQUEST.populationIds[0]!, populationName: 'FBI 2015 Caucasian', synthetic: false, probability: 3.1e-10, expectedChanceHits: 3.1e-4 }],
  candidates: [
    {
      profileId: '0a7c1d2e-3f4a-4b5c-8d6e-7f8091a2b3c4',
      sampleName: 'REF-PLANTED',
      caseId: '4e1a5b6c-7d8e-4f90-a1b2-c3d4e5f6a7b8',
      caseNumber: 'KB-1',
      comparedMarkers: 13,
      mismatches: 0,
      stringencyMet: true,
      results: [result('Identity', 2.51e15, '99.99% (CI 2.51e+15)'), result('Full siblings', 8.4e5, '99.99% (CI 8.40e+5)')],
    },
    {
      profileId: '1b8d2e3f-4a5b-4c6d-9e7f-8091a2b3c4d5',
      sampleName: 'REF-BROTHER',
      caseId: '4e1a5b6c-7d8e-4f90-a1b2-c3d4e5f6a7b8',
      caseNumber: 'KB-1',
      comparedMarkers: 13,
      mismatches: 6,
      stringencyMet: false,
      results: [result('Full siblings', 3.1e4, '99.99% (CI 3.10e+4)')],
    },
  ],
};

type SearchSnapshot = SnapshotFrom<typeof keyboardSearchMachine>;

/** The page reduced to what the machine decides: Search (busy while searching), the failure with Try again, the results. */
function SearchScreen({ snapshot, send }: { snapshot: SearchSnapshot; send(event: KeyboardSearchEvent): void }) {
  const busy = snapshot.hasTag('busy');
  return (
    <section className="page" style={{ margin: '1rem' }}>
      <h1>Keyboard search</h1>
      <p className="field__hint">
        Machine state: <strong>{JSON.stringify(snapshot.value)}</strong>
      </p>
      <div className="form__actions">
        <button type="button" className="button button--primary" disabled={busy} onClick={() => send({ type: 'search', request: REQUEST })}>
          {busy ? 'Searching…' : 'Search'}
        </button>
        <button type="button" className="button button--secondary" disabled={busy} onClick={() => send({ type: 'clear' })}>
          Clear
        </button>
      </div>
      {snapshot.matches('failed') && snapshot.context.error ? <SearchFailure error={snapshot.context.error} onRetry={() => send({ type: 'retry' })} /> : null}
      {snapshot.matches('results') && snapshot.context.answer ? <SearchResults orgId={ORG} answer={snapshot.context.answer} /> : null}
    </section>
  );
}

/** The search in one state of the machine; events go nowhere (see Interactive). */
function SearchState({ value, context }: { value: StateValue; context: Partial<KeyboardSearchContext> }) {
  const snapshot = keyboardSearchMachine.resolveState({ value, context: { request: null, answer: null, error: null, ...context } });
  return <SearchScreen snapshot={snapshot} send={() => undefined} />;
}

function InteractiveSearch() {
  const logic = useMemo(() => {
    let calls = 0;
    return keyboardSearchMachine.provide({
      actors: {
        search: fromPromise(async () => {
          await new Promise((resolve) => setTimeout(resolve, 1000));
          if (++calls === 1) throw { status: 400, serverMessage: 'Population FBI 2015 Caucasian does not hold Y-STR haplotypes' };
          return ANSWER;
        }),
      },
    });
  }, []);
  const [snapshot, send] = useMachine(logic);
  return <SearchScreen snapshot={snapshot} send={send} />;
}

const meta = { title: 'Machines/Keyboard search', component: SearchState, args: { context: {} } } satisfies Meta<typeof SearchState>;
export default meta;
type Story = StoryObj<typeof meta>;

/** editing: the form, nothing searched yet. */
export const Editing: Story = { args: { value: 'editing' } };
/** searching: the form is locked while the server compares the profile. */
export const Searching: Story = { args: { value: 'searching', context: { request: REQUEST } } };
/** results: each candidate with stringency, markers compared and mismatched, and each analysis per population. */
export const Results: Story = { args: { value: 'results', context: { request: REQUEST, answer: ANSWER } } };
/** results with no candidate. */
export const NoCandidates: Story = { args: { value: 'results', context: { request: REQUEST, answer: { candidates: [], truncated: false, candidateCount: 0, notShown: 0, ...LIMITS, searchedProfiles: 1_000_000, chance: [] } } } };
/** results cut to the strongest: more were found than an answer lists, and the count of the others is stated. */
export const MoreNotShown: Story = { args: { value: 'results', context: { request: REQUEST, answer: { ...ANSWER, truncated: true, candidateCount: 4_031, notShown: 4_029 } } } };
/** results of a search that waited for a search thread: its place in the queue is stated. */
export const WaitedInQueue: Story = { args: { value: 'results', context: { request: REQUEST, answer: { ...ANSWER, queuePosition: 2 } } } };
/** failed: the server's message and Try again; the form keeps what was typed. */
export const Failed: Story = { args: { value: 'failed', context: { request: REQUEST, error: { status: 400, message: 'Population FBI 2015 Caucasian does not hold Y-STR haplotypes' } } } };

export const Interactive: Story = { args: { value: 'editing' }, render: () => <InteractiveSearch /> };
