/**
 * Every state of the database self-comparison screen (machines/selfComparison) a user can reach,
 * drawn by the real screen from a resolved snapshot (no network; the report's page of pairs comes
 * from a fake call). "Interactive" runs the machine with fake calls: the run takes three polls and
 * finds the pairs below; a minimum of 99 equal markers is refused.
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useMemo } from 'react';
import { fromPromise, type StateValue } from 'xstate';
import type { SelfComparisonJob, SelfComparisonPair } from '../../core/schemas/self-comparison';
import { selfComparisonMachine, type SelfComparisonContext, type SelfComparisonRequest } from '../../machines/selfComparison.machine';
import { SelfComparisonActor } from '../../src/self-comparison/self-comparison-actor';
import type { SelfComparisonCalls } from '../../src/self-comparison/self-comparison-api';
import { SelfComparisonScreen } from '../../src/self-comparison/self-comparison-page';
import '../../src/self-comparison/self-comparison.css';
import { StoryRouter } from '../app/story-router';

const ORG = '5b1f7c2a-3d4e-4f5a-9b6c-7d8e9f0a1b2c';
const GLOBALFILER = '6c2a8d3b-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const CHEMISTRIES = [
  { id: GLOBALFILER, name: 'GlobalFiler', kind: 'Autosomal' },
  { id: '7e3b9c4d-5f6a-4b7c-8d9e-0f1a2b3c4d5e', name: 'Yfiler Plus', kind: 'YStr' },
];
const REQUEST: SelfComparisonRequest = { chemistryId: GLOBALFILER, maxDifferences: 2, minEqualMarkers: 10 };
const JOB: SelfComparisonJob = {
  id: '0d6f8b4a-1c2e-4f3a-8b5c-7d9e0f1a2b3c',
  organizationId: ORG,
  chemistryId: GLOBALFILER,
  chemistryName: 'GlobalFiler',
  maxDifferences: 2,
  minEqualMarkers: 10,
  state: 'running',
  phase: 'comparing',
  blocksDone: 2,
  blocksTotal: 4,
  pairsVerified: 18_204,
  pairsFound: 3,
  profilesCompared: null,
  tooFewMarkers: null,
  mixturesLeftOut: 4,
  duplicateCount: 0,
  nearDuplicateCount: 0,
  truncated: false,
  startedBy: 'Ada Analyst',
  startedAt: '2026-11-24T14:00:00.000Z',
  finishedAt: null,
  elapsedMs: null,
  message: null,
};
const DONE: SelfComparisonJob = { ...JOB, state: 'done', phase: 'finished', blocksDone: 4, profilesCompared: 412_530, tooFewMarkers: 118, duplicateCount: 1, nearDuplicateCount: 2, finishedAt: '2026-11-24T14:00:03.000Z', elapsedMs: 2_870 };
const profile = (n: number, sampleName: string, caseNumber: string) => ({ id: `4e1a5b6c-7d8e-4f90-a1b2-c3d4e5f6a7${String(n).padStart(2, '0')}`, sampleName, caseId: '9a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d', caseNumber, sampleType: 'Convicted Offender' });
const PAIRS: SelfComparisonPair[] = [
  { kind: 'duplicate', equalMarkers: 20, first: profile(1, 'SMITH-JOHN', 'OFF-2019-0412'), second: profile(2, 'JONES-PETER', 'OFF-2023-1187'), differences: [] },
  { kind: 'near-duplicate', equalMarkers: 19, first: profile(3, 'OFF-55120', 'OFF-2020-0031'), second: profile(4, 'OFF-55121', 'OFF-2020-0031'), differences: [{ marker: 'TH01', first: ['6', '9.3'], second: ['7', '9.3'] }] },
  {
    kind: 'near-duplicate',
    equalMarkers: 11,
    first: profile(5, 'ARR-0193', 'ARR-2021-0193'),
    second: profile(6, 'ARR-0931', 'ARR-2022-0931'),
    differences: [
      { marker: 'D2S1338', first: ['17', '23'], second: null },
      { marker: 'FGA', first: ['21', '24'], second: ['21', '22'] },
    ],
  },
];
const never = () => new Promise<never>(() => undefined);
const CALLS: SelfComparisonCalls = {
  job: never,
  start: never,
  cancel: never,
  chemistries: async () => CHEMISTRIES,
  pairs: async (_orgId, query) => {
    const all = query.kind === 'all' ? PAIRS : PAIRS.filter((p) => p.kind === query.kind);
    return { items: all, count: all.length };
  },
  download: async () => 'self-comparison-GlobalFiler.csv',
};
const BASE: SelfComparisonContext = { orgId: ORG, job: null, request: null, error: null };

function Screen() {
  const value = SelfComparisonActor.useSelector((s) => JSON.stringify(s.value));
  return (
    <StoryRouter path={`/${ORG}/profiles/self-comparison`}>
      <section className="page self-comparison" style={{ margin: '1rem' }}>
        <h1>Database self-comparison</h1>
        <p className="field__hint">
          Machine state: <strong>{value}</strong>
        </p>
        <SelfComparisonScreen orgId={ORG} calls={CALLS} chemistries={CHEMISTRIES} />
      </section>
    </StoryRouter>
  );
}

/** The screen in one state of the machine; the calls never answer (see Interactive). */
function SelfComparisonState({ value, context }: { value: StateValue; context: Partial<SelfComparisonContext> }) {
  const snapshot = selfComparisonMachine.resolveState({ value, context: { ...BASE, ...context } });
  const logic = useMemo(
    () =>
      selfComparisonMachine.provide({
        delays: { pollInterval: 60 * 60 * 1000 },
        actors: {
          loadJob: fromPromise<SelfComparisonJob | null, { orgId: string }>(never),
          startJob: fromPromise<SelfComparisonJob, { orgId: string; request: SelfComparisonRequest }>(never),
          cancelJob: fromPromise<SelfComparisonJob, { orgId: string }>(never),
        },
      }),
    [],
  );
  return (
    <SelfComparisonActor.Provider logic={logic} options={{ snapshot, input: { orgId: ORG } }}>
      <Screen />
    </SelfComparisonActor.Provider>
  );
}

function InteractiveSelfComparison() {
  const logic = useMemo(() => {
    let polls = 0;
    let current: SelfComparisonJob | null = null;
    return selfComparisonMachine.provide({
      actors: {
        loadJob: fromPromise<SelfComparisonJob | null, { orgId: string }>(async () => {
          await new Promise((r) => setTimeout(r, 300));
          if (current?.state === 'running') current = ++polls >= 3 ? DONE : { ...current, blocksDone: Math.min(4, polls + 1), pairsVerified: polls * 9_000 };
          return current;
        }),
        startJob: fromPromise<SelfComparisonJob, { orgId: string; request: SelfComparisonRequest }>(async ({ input }) => {
          await new Promise((r) => setTimeout(r, 400));
          if (input.request.minEqualMarkers > 40) throw { status: 400, serverMessage: 'minEqualMarkers: Too big: expected number to be <=40' };
          polls = 0;
          current = { ...JOB, blocksDone: 0, pairsVerified: 0, maxDifferences: input.request.maxDifferences, minEqualMarkers: input.request.minEqualMarkers };
          return current;
        }),
        cancelJob: fromPromise<SelfComparisonJob, { orgId: string }>(async () => {
          current = { ...JOB, state: 'cancelled', phase: 'finished', message: 'Cancelled: nothing was compared to the end, so no pairs are listed.' };
          return current;
        }),
      },
    });
  }, []);
  return (
    <SelfComparisonActor.Provider logic={logic} options={{ input: { orgId: ORG } }}>
      <Screen />
    </SelfComparisonActor.Provider>
  );
}

const meta = { title: 'Machines/Self-comparison', component: SelfComparisonState, args: { context: {} } } satisfies Meta<typeof SelfComparisonState>;
export default meta;
type Story = StoryObj<typeof meta>;

/** loading: the organization's last comparison is read. */
export const Loading: Story = { args: { value: 'loading' } };
/** loadFailed: the server's message and Try again. */
export const LoadFailed: Story = { args: { value: 'loadFailed', context: { error: { status: 0, message: 'Your request failed. Please try again later.' } } } };
/** idle: no comparison since the server started; the chemistry and parameters, Start. */
export const Idle: Story = { args: { value: 'idle' } };
/** starting: the form locked while the server starts the job. */
export const Starting: Story = { args: { value: 'starting', context: { request: REQUEST } } };
/** startFailed: refused (one runs already) — Try again and Dismiss; the form stays filled. */
export const StartFailed: Story = { args: { value: 'startFailed', context: { request: REQUEST, error: { status: 409, message: 'A self-comparison of these profiles is already running: wait for it, or cancel it first.' } } } };
/** running: blocks grouped, pairs verified and found; Cancel. */
export const Running: Story = { args: { value: { running: 'waiting' }, context: { request: REQUEST, job: JOB } } };
/** running, polling: the same, while the next progress is read. */
export const Polling: Story = { args: { value: { running: 'polling' }, context: { request: REQUEST, job: JOB } } };
/** running, cancelling: Cancelling… until the job says cancelled. */
export const Cancelling: Story = { args: { value: { running: 'cancelling' }, context: { request: REQUEST, job: JOB } } };
/** report: the summary, the pairs (a duplicate, near-duplicates at 1 and 2 markers), Download CSV. */
export const Report: Story = { args: { value: 'report', context: { job: DONE } } };
/** report with no pair found. */
export const EmptyReport: Story = { args: { value: 'report', context: { job: { ...DONE, duplicateCount: 0, nearDuplicateCount: 0, pairsFound: 0 } } } };
/** stopped: a cancelled run says so; the form may start another. */
export const Cancelled: Story = { args: { value: 'stopped', context: { job: { ...JOB, state: 'cancelled', phase: 'finished', message: 'Cancelled: nothing was compared to the end, so no pairs are listed.' } } } };
/** stopped: a failed run. */
export const Failed: Story = { args: { value: 'stopped', context: { job: { ...JOB, state: 'failed', phase: 'finished', message: 'The comparison failed; try again. The server log has the details.' } } } };

export const Interactive: Story = { args: { value: 'idle' }, render: () => <InteractiveSelfComparison /> };
