/**
 * Every state of the Continuous mixture calculator (issue 31) a user can reach, drawn with the real screen from a
 * resolved snapshot of machines/continuousRun and fake calls (no network): the stain being read, unreadable or
 * without heights, the choices with what is missing, fixed parameters, weighing, the result with its deconvolution
 * and validation charts, a fit that explains nothing, and a refusal. "Interactive" runs the machine: a run takes two
 * seconds (Cancel can be tried), and the population "Fails" makes it fail.
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import type { StateValue } from 'xstate';
import type { ContinuousLrResult } from '../../core/schemas/continuous';
import type { Population } from '../../core/schemas/populations';
import type { Profile } from '../../core/schemas/profiles';
import { continuousDraft, continuousRunMachine, initialContinuousContext, type ContinuousRunContext, type LoadedStain } from '../../machines/continuousRun.machine';
import type { CalculatorCalls } from '../../src/analyses/calculator-api';
import { ContinuousCalculator } from '../../src/analyses/continuous-calculator';
import { CONTINUOUS_ANALYSIS_ID, CONTINUOUS_RESULT, FAILED_FIT_RESULT, LOADED_STAIN, POPULATION_ID, STAIN_ID, STAIN_WITHOUT_HEIGHTS, SUSPECT_ID, VICTIM_ID } from '../analyses/continuous-fixtures';
import '../../src/analyses/calculator.css';

const ORG = '9c1d2e3f-4a5b-4c6d-8e7f-90a1b2c3d4e5';
const FAILS = '29304a5b-6e7f-4081-9293-a4b5c6d7e8f0';
const profile = (id: string, profileId: string) => ({ id, profileId, caseNumber: 'OSL-31', status: 'approved', kind: 'Autosomal' }) as Profile;
const PROFILES = [profile(STAIN_ID, 'STAIN-07'), profile(SUSPECT_ID, 'SUSPECT-1'), profile(VICTIM_ID, 'VICTIM-1')];
const POPULATIONS = [{ id: POPULATION_ID, name: 'Norway (ESX 17)', kind: 'Autosomal' }, { id: FAILS, name: 'Fails', kind: 'Autosomal' }] as Population[];

const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    });
  });

/** Fake calls; `stain` decides how the stain reads (a promise that never settles keeps it loading). */
function fakeCalls(stain: () => Promise<LoadedStain> = async () => LOADED_STAIN): CalculatorCalls {
  return {
    profiles: async (_org: string, _case: string | null, _kind: string, search: string) => {
      const items = PROFILES.filter((p) => p.profileId.includes(search.trim()));
      return { items, count: items.length };
    },
    populations: async () => ({ items: POPULATIONS, count: POPULATIONS.length }),
    stain,
    continuousLr: async (body: { populationId?: string }, signal?: AbortSignal): Promise<ContinuousLrResult> => {
      await wait(2000, signal);
      if (body.populationId === FAILS) throw { status: 404, serverMessage: `No population with id ${FAILS}` };
      return CONTINUOUS_RESULT;
    },
  } as unknown as CalculatorCalls;
}

interface StateArgs {
  run: StateValue;
  stain: string;
  context: Partial<ContinuousRunContext>;
  calls?: CalculatorCalls;
}

/** The screen started in `run` (and the stain's region in `stain`) with `context`. */
function ContinuousState({ run, stain, context, calls }: StateArgs) {
  const snapshot = continuousRunMachine.resolveState({ value: { stain, run } as StateValue, context: { ...initialContinuousContext({ analysisId: CONTINUOUS_ANALYSIS_ID }), ...context } });
  return (
    <section className="page calculator" style={{ margin: '1rem' }}>
      <h1>Continuous mixture</h1>
      <ContinuousCalculator orgId={ORG} analysisId={CONTINUOUS_ANALYSIS_ID} caseId={null} calls={calls ?? fakeCalls()} snapshot={snapshot} />
    </section>
  );
}

const meta = { title: 'Machines/Continuous run', component: ContinuousState, args: { run: 'editing', stain: 'none', context: {} } } satisfies Meta<typeof ContinuousState>;
export default meta;
type Story = StoryObj<typeof meta>;

const ready: Partial<ContinuousRunContext> = { stainId: STAIN_ID, stain: LOADED_STAIN, replicatesChosen: [true, true], personOfInterestId: SUSPECT_ID, populationId: POPULATION_ID };

/** editing: nothing chosen yet; the model's defaults (2 contributors, fitted from 4 starts). */
export const Editing: Story = {};
/** The stain is being read (its replicates with heights and its kit). */
export const StainLoading: Story = { args: { stain: 'loading', context: { stainId: STAIN_ID }, calls: fakeCalls(() => new Promise(() => {})) } };
/** The stain could not be read: the reason and Read again. */
export const StainFailed: Story = { args: { stain: 'failed', context: { stainId: STAIN_ID, stainError: { status: 403, message: 'You may not read this profile.' } } } };
/** A stain imported without heights: nothing for the continuous model, and Run says so. */
export const StainWithoutHeights: Story = { args: { stain: 'ready', context: { ...ready, stain: STAIN_WITHOUT_HEIGHTS, replicatesChosen: [false], showBlockers: true } } };
/** editing after Run with choices missing: an unchosen known contributor and a typed θ of 1. */
export const EditingWithBlockers: Story = { args: { stain: 'ready', context: { ...ready, personOfInterestId: null, knownContributors: [null], draft: { ...continuousDraft(), theta: '1' }, showBlockers: true } } };
/** Every choice made, both stutters and degradation on, a known contributor and a known non-contributor. */
export const Ready: Story = {
  args: { stain: 'ready', context: { ...ready, knownContributors: [VICTIM_ID], draft: { ...continuousDraft(), contributors: '3', degradation: true, backwardStutter: true, forwardStutter: true } } },
};
/** Fixed parameters per hypothesis, the threshold typed. */
export const FixedParameters: Story = { args: { stain: 'ready', context: { ...ready, draft: { ...continuousDraft(), mode: 'fixed', threshold: 'typed', analyticalThreshold: '75' } } } };
/** running: the choices are locked; Cancel aborts the request. */
export const Running: Story = { args: { run: 'running', stain: 'ready', context: ready, calls: { ...fakeCalls(), continuousLr: () => new Promise(() => {}) } as unknown as CalculatorCalls } };
/** result of a fit: the LR, both hypotheses, every fitted parameter, the deconvolution, the PP-plot and the EPG chart. */
export const Result: Story = { args: { run: 'result', stain: 'ready', context: { ...ready, result: CONTINUOUS_RESULT } } };
/** result of a fit that explains nothing under Hp: the reason, no LR; Hd's fit still validates. */
export const FailedFit: Story = { args: { run: 'result', stain: 'ready', context: { ...ready, result: FAILED_FIT_RESULT } } };
/** error: the server's refusal, Try again or Dismiss; the choices stay. */
export const Refused: Story = { args: { run: 'error', stain: 'ready', context: { ...ready, error: { status: 400, message: 'D3S1358: degradation needs the fragment size of allele 14.' } } } };
/** The machine running with fake calls: choose STAIN-07, SUSPECT-1 and a population, then Run. */
export const Interactive: Story = {
  render: () => (
    <section className="page calculator" style={{ margin: '1rem' }}>
      <h1>Continuous mixture</h1>
      <ContinuousCalculator orgId={ORG} analysisId={CONTINUOUS_ANALYSIS_ID} caseId={null} calls={fakeCalls()} />
    </section>
  ),
};
