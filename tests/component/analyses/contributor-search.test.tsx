/**
 * Issue 31's number-of-contributors search on the Continuous mixture calculator: Start sends the calculator's choices
 * with the counts and models chosen, progress shows, Cancel stops, the models show side by side with the best marked
 * and refused ones with their reason, and "Use this model" sets the calculator's contributor count and switches. Calls
 * are fakes; the machines are real.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ContributorSearchJob, ContributorSearchStart } from '../../../core/schemas/continuous';
import { contributorSearchMachine, initialContributorSearch } from '../../../machines/contributorSearch.machine';
import { continuousRunMachine, initialContinuousContext } from '../../../machines/continuousRun.machine';
import type { CalculatorCalls } from '../../../src/analyses/calculator-api';
import { ContinuousCalculator } from '../../../src/analyses/continuous-calculator';
import { ContributorSearch } from '../../../src/analyses/contributor-search';
import { CANCELLED_JOB, DONE_JOB, RUNNING_JOB } from '../../../stories/analyses/contributor-search-fixtures';
import { CONTINUOUS_ANALYSIS_ID, CONTINUOUS_RESULT, LOADED_STAIN, POPULATION_ID, STAIN_ID, SUSPECT_ID } from '../../../stories/analyses/continuous-fixtures';
import { continuousLrBody } from '../../../machines/continuousRun.machine';

const ORG = '9c1d2e3f-4a5b-4c6d-8e7f-90a1b2c3d4e5';
const READY = { ...initialContinuousContext({ analysisId: CONTINUOUS_ANALYSIS_ID }), stainId: STAIN_ID, stain: LOADED_STAIN, replicatesChosen: [true, true], personOfInterestId: SUSPECT_ID, populationId: POPULATION_ID };

function fakeSearch(read: () => Promise<ContributorSearchJob> = async () => DONE_JOB, start: () => Promise<ContributorSearchJob> = async () => RUNNING_JOB) {
  const started: ContributorSearchStart[] = [];
  const cancelled: string[] = [];
  const calls = {
    contributorSearch: {
      start: async (body: ContributorSearchStart) => {
        started.push(body);
        return start();
      },
      read: async () => read(),
      cancel: async (id: string) => {
        cancelled.push(id);
        return CANCELLED_JOB;
      },
    },
  } as unknown as CalculatorCalls;
  return { calls, started, cancelled };
}

const section = () => within(screen.getByRole('region', { name: 'Number of contributors' }));

describe('ContributorSearch', () => {
  it('lists what the calculator still needs instead of starting', async () => {
    const { calls, started } = fakeSearch();
    render(<ContributorSearch calls={calls} disabled={false} onUse={() => {}} request={() => ({ request: null, blockers: ['Choose a population'] })} />);
    await userEvent.click(screen.getByRole('button', { name: 'Find the number of contributors' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Choose a population');
    expect(started).toHaveLength(0);
  });

  it('starts with the counts and models chosen, shows progress per model, then the models side by side with the best marked and a refusal’s reason', async () => {
    const { calls, started } = fakeSearch();
    render(<ContributorSearch calls={calls} disabled={false} onUse={() => {}} request={() => ({ request: continuousLrBody(READY), blockers: [] })} />);
    await userEvent.selectOptions(screen.getByLabelText('To (contributors)'), '4');
    await userEvent.click(screen.getByLabelText('Also with degradation'));
    await userEvent.click(screen.getByRole('button', { name: 'Find the number of contributors' }));
    expect(await screen.findByText('Fitting: 3 of 7 models fitted; 1 not fitted (too large), see their reason.')).toBeInTheDocument();
    expect(started[0]!.contributorSearch).toEqual({ from: 1, to: 4, models: [{ degradation: false, backwardStutter: false, forwardStutter: false }, { degradation: true, backwardStutter: false, forwardStutter: false }] });
    expect(started[0]!.personOfInterest).toEqual({ profileId: SUSPECT_ID });
    expect(await screen.findByText(/^Done in 21\.0 s: 7 of 7 models fitted/, {}, { timeout: 3000 })).toBeInTheDocument();
    const best = screen.getByRole('row', { name: '2 contributors, with degradation' });
    expect(within(best).getByText('Best')).toBeInTheDocument();
    expect(within(best).getByText('-322.070000')).toBeInTheDocument();
    expect(within(best).getByText('654.14')).toBeInTheDocument();
    expect(within(best).getByText('663.30')).toBeInTheDocument();
    const refused = screen.getByRole('row', { name: '4 contributors, with degradation' });
    expect(within(refused).getByText(/Too large to fit: 1,512,400 joint genotypes/)).toBeInTheDocument();
    expect(within(refused).queryByRole('button')).toBeNull();
  });

  it('cancels a running search; the models fitted so far stay', async () => {
    const { calls, cancelled } = fakeSearch(() => new Promise(() => {}));
    render(<ContributorSearch calls={calls} disabled={false} onUse={() => {}} request={() => ({ request: continuousLrBody(READY), blockers: [] })} />);
    await userEvent.click(screen.getByRole('button', { name: 'Find the number of contributors' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel the search' }));
    expect(await screen.findByText(/^Cancelled in 8\.0 s: 3 of 7 models fitted/)).toBeInTheDocument();
    expect(cancelled).toHaveLength(1);
    expect(section().getAllByRole('button', { name: /^Use this model/ })).toHaveLength(3);
  });

  it('shows a refused start with the server’s message, and a job that failed with its message', async () => {
    const refused = fakeSearch(undefined, () => Promise.reject({ status: 409, serverMessage: 'A number-of-contributors search of yours is already running: wait for it, or cancel it first.' }));
    const view = render(<ContributorSearch calls={refused.calls} disabled={false} onUse={() => {}} request={() => ({ request: continuousLrBody(READY), blockers: [] })} />);
    await userEvent.click(screen.getByRole('button', { name: 'Find the number of contributors' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('already running');
    view.unmount();
    const failed = fakeSearch(undefined, async () => ({ ...CANCELLED_JOB, state: 'failed', message: 'The worker stopped.' }));
    render(<ContributorSearch calls={failed.calls} disabled={false} onUse={() => {}} request={() => ({ request: continuousLrBody(READY), blockers: [] })} />);
    await userEvent.click(screen.getByRole('button', { name: 'Find the number of contributors' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The worker stopped.');
    expect(screen.getByText(/^The search failed/)).toBeInTheDocument();
  });
});

describe('Use this model in the calculator', () => {
  it('sets the calculator’s number of contributors and switches to the model chosen, fitted', async () => {
    const { calls } = fakeSearch();
    const all = { ...calls, populations: async () => ({ items: [], count: 0 }), profiles: async () => ({ items: [], count: 0 }), stain: async () => LOADED_STAIN } as unknown as CalculatorCalls;
    const run = continuousRunMachine.resolveState({ value: { stain: 'ready', run: 'result' }, context: { ...READY, result: CONTINUOUS_RESULT } });
    const search = contributorSearchMachine.resolveState({ value: 'finished', context: { ...initialContributorSearch(), job: DONE_JOB } });
    render(<ContinuousCalculator orgId={ORG} analysisId={CONTINUOUS_ANALYSIS_ID} caseId={null} calls={all} snapshot={run} searchSnapshot={search} />);
    await userEvent.click(screen.getByRole('button', { name: 'Use this model: 2 contributors, with degradation' }));
    const model = within(screen.getByRole('group', { name: 'Continuous model' }));
    await waitFor(() => expect(model.getByLabelText('Number of contributors')).toHaveValue('2'));
    expect(model.getByLabelText('Degradation (peak heights fall with fragment size)')).toBeChecked();
    expect(model.getByLabelText('Fitted by maximum likelihood under each hypothesis')).toBeChecked();
    // The old result belonged to the old model.
    expect(screen.queryByRole('region', { name: 'Continuous result' })).toBeNull();
  });
});
