/**
 * Every state of the number-of-contributors search (issue 31) a user can reach, drawn with the real component from a
 * resolved snapshot of machines/contributorSearch and fake calls: idle, the calculator's choices missing, starting,
 * running with progress, done with the best marked and a refused model's reason, cancelled, a job that failed, a
 * refused start. "Interactive" runs the machine: the search reads as running once, then done.
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import type { StateValue } from 'xstate';
import type { ContributorSearchJob } from '../../core/schemas/continuous';
import { contributorSearchMachine, initialContributorSearch, type ContributorSearchContext } from '../../machines/contributorSearch.machine';
import { continuousLrBody, initialContinuousContext } from '../../machines/continuousRun.machine';
import type { CalculatorCalls } from '../../src/analyses/calculator-api';
import { ContributorSearch } from '../../src/analyses/contributor-search';
import { CANCELLED_JOB, DONE_JOB, FAILED_JOB, RUNNING_JOB } from '../analyses/contributor-search-fixtures';
import { CONTINUOUS_ANALYSIS_ID, LOADED_STAIN, POPULATION_ID, STAIN_ID, SUSPECT_ID } from '../analyses/continuous-fixtures';
import '../../src/analyses/calculator.css';

const REQUEST = continuousLrBody({ ...initialContinuousContext({ analysisId: CONTINUOUS_ANALYSIS_ID }), stainId: STAIN_ID, stain: LOADED_STAIN, replicatesChosen: [true, true], personOfInterestId: SUSPECT_ID, populationId: POPULATION_ID });

function fakeCalls(): CalculatorCalls {
  let reads = 0;
  const later = (job: ContributorSearchJob) => new Promise<ContributorSearchJob>((resolve) => setTimeout(() => resolve(job), 600));
  return {
    contributorSearch: {
      start: () => later(RUNNING_JOB),
      read: () => later(++reads < 2 ? RUNNING_JOB : DONE_JOB),
      cancel: () => later(CANCELLED_JOB),
    },
  } as unknown as CalculatorCalls;
}

interface StateArgs {
  value: StateValue;
  context: Partial<ContributorSearchContext>;
}

function SearchState({ value, context }: StateArgs) {
  const snapshot = contributorSearchMachine.resolveState({ value, context: { ...initialContributorSearch(), ...context } });
  return (
    <section className="page calculator" style={{ margin: '1rem' }}>
      <ContributorSearch calls={fakeCalls()} disabled={false} snapshot={snapshot} onUse={() => {}} request={() => ({ request: REQUEST, blockers: [] })} />
    </section>
  );
}

const meta = { title: 'Machines/Contributor search', component: SearchState, args: { value: 'idle', context: {} } } satisfies Meta<typeof SearchState>;
export default meta;
type Story = StoryObj<typeof meta>;

/** idle: 1 to 3 contributors, no degradation or stutter tried. */
export const Idle: Story = {};
/** idle after Start with the calculator's choices missing. */
export const ChoicesMissing: Story = { args: { context: { blockers: ['Choose a profile for Person of interest', 'Choose a population'] } } };
/** running: progress per model; Cancel the search. */
export const Running: Story = { args: { value: 'running', context: { job: RUNNING_JOB, variants: { degradation: true, backwardStutter: false, forwardStutter: false }, to: 4 } } };
/** finished: the models side by side, the best marked, a model too large with its reason; Use this model. */
export const Done: Story = { args: { value: 'finished', context: { job: DONE_JOB, variants: { degradation: true, backwardStutter: false, forwardStutter: false }, to: 4 } } };
/** finished by Cancel: the models fitted so far. */
export const Cancelled: Story = { args: { value: 'finished', context: { job: CANCELLED_JOB } } };
/** finished by a failure in the worker: its message. */
export const JobFailed: Story = { args: { value: 'finished', context: { job: FAILED_JOB } } };
/** failed to start: the server's refusal (another search running). */
export const StartRefused: Story = { args: { value: 'failed', context: { error: { status: 409, message: 'A number-of-contributors search of yours is already running: wait for it, or cancel it first.' } } } };
/** failed to read a running job: Try again reads it again. */
export const ReadFailed: Story = { args: { value: 'failed', context: { job: RUNNING_JOB, error: { status: 0, message: 'The server could not be reached. Check the connection and try again.' } } } };
/** The machine with fake calls: Start, watch it run, Cancel or wait. */
export const Interactive: Story = {
  render: () => (
    <section className="page calculator" style={{ margin: '1rem' }}>
      <ContributorSearch calls={fakeCalls()} disabled={false} onUse={() => {}} request={() => ({ request: REQUEST, blockers: [] })} />
    </section>
  ),
};
