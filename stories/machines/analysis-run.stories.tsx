/**
 * Every state of the analysis calculator a user can reach, drawn from a resolved snapshot (no
 * network) with the real result view and, for a mixture analysis (issue 17), the real parameters form. "Interactive" runs the machine with a fake analyze call:
 * choosing population "Fails" makes the run fail; a run takes two seconds, so Cancel can be tried.
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import { fromPromise, type SnapshotFrom, type StateValue } from 'xstate';
import type { AnalysisResult } from '../../core/schemas/analyses';
import type { Population } from '../../core/schemas/populations';
import {
  analysisRunMachine,
  initialRunContext,
  knownContributorLabel,
  mixtureDraft,
  replicateLabel,
  runBlockers,
  type AnalysisRunContext,
  type AnalysisRunEvent,
  type MixtureRun,
  type RunAnalysis,
} from '../../machines/analysisRun.machine';
import { AnalysisResultView } from '../../src/analyses/analysis-result-view';
import { MixtureParameters } from '../../src/analyses/mixture-parameters';
import { MIXTURE_ANALYSIS, MIXTURE_PROFILES, MIXTURE_RESULT, MIXTURE_SETTING } from '../analyses/mixture-fixtures';
import { PopulationPicker } from '../../src/analyses/population-picker';
import { RunBlockers, RunButtons, RunFailure } from '../../src/analyses/run-controls';
import '../../src/analyses/calculator.css';

const ANALYSIS: RunAnalysis = { id: '5b1f0a52-8a3c-4f0e-9a51-6c0d2f7b9e10', kind: 'Computational', roles: ['Person 1', 'Person 2'] };
const PEDIGREE_ANALYSIS: RunAnalysis = { id: '6c2a1b63-9b4d-4a1f-8b62-7d1e3a8c0f21', kind: 'Pedigree', roles: ['Missing person', 'Wife', 'Child 1', 'Child 2'] };
const PROFILES = [
  { id: '0a7c1d2e-3f4a-4b5c-8d6e-7f8091a2b3c4', name: 'SIB-1 (case KIN-7, approved)' },
  { id: '1b8d2e3f-4a5b-4c6d-9e7f-8091a2b3c4d5', name: 'SIB-2 (case KIN-7, approved)' },
];
const PEDIGREE_SAMPLES = ['MP-REMAINS', 'MP-WIFE', 'MP-CHILD-A', 'MP-CHILD-B'];
const PEDIGREE_PROFILES = PEDIGREE_SAMPLES.map((sample, i) => ({ id: `8c5e9f0a-1b2c-4d34-a5b6-c7d8e9f0a1b${i}`, name: `${sample} (case MP-7, approved)` }));
const stamp = { version: 1, createdAt: '2026-11-01T09:00:00.000Z', updatedAt: '2026-11-01T09:00:00.000Z' };
const POPULATIONS = [
  { id: '2c9e3f4a-5b6c-4d7e-8f80-91a2b3c4d5e6', name: 'FBI 2015 Caucasian', kind: 'Autosomal', ...stamp },
  { id: '3d0f4a5b-6c7d-4e8f-9091-a2b3c4d5e6f7', name: 'Fails', kind: 'Autosomal', ...stamp },
] as unknown as Population[];

// Full siblings over FBI 2015 Caucasian frequencies (Moretti et al. 2016), two markers and Amelogenin.
const RESULT: AnalysisResult = {
  analysisId: ANALYSIS.id,
  analysisName: 'Full siblings',
  analysisLabel: 'Full siblings (κ = ¼, ½, ¼)',
  kind: 'Computational',
  roles: [
    { role: 'Person 1', profileId: PROFILES[0]!.id, sampleName: 'SIB-1', caseId: '4e1a5b6c-7d8e-4f90-a1b2-c3d4e5f6a7b8', caseNumber: 'KIN-7' },
    { role: 'Person 2', profileId: PROFILES[1]!.id, sampleName: 'SIB-2', caseId: '4e1a5b6c-7d8e-4f90-a1b2-c3d4e5f6a7b8', caseNumber: 'KIN-7' },
  ],
  constants: [
    { name: 'k0', notation: '\\kappa_0', value: 0.25 },
    { name: 'k1', notation: '\\kappa_1', value: 0.5 },
    { name: 'k2', notation: '\\kappa_2', value: 0.25 },
  ],
  missingPatterns: [],
  populations: [
    {
      populationId: POPULATIONS[0]!.id,
      populationName: 'FBI 2015 Caucasian',
      populationSource: 'Moretti et al. (2016)',
      synthetic: false,
      combinedIndex: 3.93,
      log10: Math.log10(3.93),
      probability: '79.72% (CI 3.93e+0)',
      haplotypeCount: null,
      markers: [
        { marker: 'D3S1358', genotypes: [['15', '16'], ['15', '16']], pattern: 'PQ-PQ', expression: 'k0 + k1*(p+q)/(4*p*q) + k2/(2*p*q)', latex: '\\kappa_0 + \\frac{\\kappa_1 (p + q)}{4 p q} + \\frac{\\kappa_2}{2 p q}', value: 3.2, log10: Math.log10(3.2), isExclusion: null, notEvaluated: null },
        { marker: 'vWA', genotypes: [['16', '17'], ['17', '18']], pattern: 'PQ-QR', expression: 'k0 + k1/(4*q)', latex: '\\kappa_0 + \\frac{\\kappa_1}{4 q}', value: 1.23, log10: Math.log10(1.23), isExclusion: null, notEvaluated: null },
        { marker: 'Amelogenin', genotypes: [['X', 'Y'], ['X', 'Y']], pattern: 'PQ-PQ', expression: null, latex: null, value: null, log10: null, isExclusion: null, notEvaluated: 'no allele frequencies for Amelogenin in FBI 2015 Caucasian' },
      ],
    },
  ],
  exclusion: null,
  pedigree: null,
  mutation: null,
  computedAt: '2026-11-22T10:00:00.000Z',
};

const MODELS_TEXT = 'female: stepwise, rate 0.001, rate2 0.00001, range 0.1; male: stepwise, rate 0.003, rate2 0.00001, range 0.1';
const CASE_MP7 = { caseId: '7b4d8e9f-0a1b-4c23-d4e5-f6a7b8c9d0e1', caseNumber: 'MP-7' };
/** A pedigree run's marker: LR = L(H1) / L(H2). */
const pedigreeMarker = (marker: string, genotypes: string[][], likelihoodH1: number, likelihoodH2: number, verdict: 'consistent' | 'needs a mutation' | 'excluded') => ({
  marker,
  genotypes,
  pattern: null,
  expression: null,
  latex: null,
  value: likelihoodH1 / likelihoodH2,
  log10: verdict === 'excluded' ? null : Math.log10(likelihoodH1 / likelihoodH2),
  isExclusion: null,
  notEvaluated: null,
  pedigree: { alleles: [], frequencies: [], mutation: MODELS_TEXT, likelihoodH1, likelihoodH2, verdict },
});
const PEDIGREE_MARKERS = [
  pedigreeMarker('D3S1358', [['15', '16'], ['17', '18'], ['15', '17'], ['16', '18']], 2.1e-6, 1.9e-7, 'consistent'),
  pedigreeMarker('vWA', [['16', '17'], ['14', '15'], ['14', '16'], ['15', '17']], 1.4e-6, 2.2e-7, 'consistent'),
  pedigreeMarker('FGA', [['21', '24'], ['20', '22'], ['20', '21'], ['22', '23']], 3.0e-9, 4.6e-8, 'needs a mutation'),
];

// 'Wife and two children' (issue 16) with its seed stepwise models; Child 2's FGA 23 is one step from 24.
const PEDIGREE_RESULT: AnalysisResult = {
  ...RESULT,
  analysisId: PEDIGREE_ANALYSIS.id,
  analysisName: 'Wife and two children',
  analysisLabel: 'Missing person tested against his wife and their two children',
  kind: 'Pedigree',
  roles: PEDIGREE_ANALYSIS.roles.map((role, i) => ({ role, profileId: PEDIGREE_PROFILES[i]!.id, sampleName: PEDIGREE_SAMPLES[i]!, ...CASE_MP7 })),
  constants: [],
  populations: [
    {
      ...RESULT.populations[0]!,
      markers: PEDIGREE_MARKERS,
      combinedIndex: PEDIGREE_MARKERS.reduce((lr, m) => lr * m.value, 1),
      log10: PEDIGREE_MARKERS.reduce((sum, m) => sum + m.log10!, 0),
      probability: '98.70% (CI 4.40e+0)',
      conclusion: null,
      markersNeedingMutation: ['FGA'],
      excludedMarkers: [],
    },
  ],
  pedigree: {
    h1: [
      { id: 'Missing person', sex: 'male' },
      { id: 'Wife', sex: 'female' },
      { id: 'Child 1', sex: 'female', father: 'Missing person', mother: 'Wife' },
      { id: 'Child 2', sex: 'male', father: 'Missing person', mother: 'Wife' },
    ],
    h2: [
      { id: 'Missing person', sex: 'male' },
      { id: 'Wife', sex: 'female' },
      { id: 'Unknown father', sex: 'male' },
      { id: 'Child 1', sex: 'female', father: 'Unknown father', mother: 'Wife' },
      { id: 'Child 2', sex: 'male', father: 'Unknown father', mother: 'Wife' },
    ],
    target: 'Missing person',
  },
  mutation: {
    female: { model: 'stepwise', rate: 0.001, rate2: 0.00001, range: 0.1 },
    male: { model: 'stepwise', rate: 0.003, rate2: 0.00001, range: 0.1 },
    markers: [],
    text: MODELS_TEXT,
  },
};

const base: AnalysisRunContext = { analysis: ANALYSIS, profileIds: [null, null], populationIds: [], mixture: null, result: null, error: null, showBlockers: false };
const ready: Partial<AnalysisRunContext> = { profileIds: [PROFILES[0]!.id, PROFILES[1]!.id], populationIds: [POPULATIONS[0]!.id] };

type RunSnapshot = SnapshotFrom<typeof analysisRunMachine>;

const MIXTURE_CHOICES = MIXTURE_PROFILES.map((p) => ({ id: p.id, name: `${p.sampleName} (case MX-3, approved)` }));
const TITLES: Record<string, string> = { Pedigree: 'Wife and two children', Mixture: 'Mixture, 3 contributors' };

/** One profile's select, as the calculator's pickers choose (without their search). */
function ProfileSelect({ label, value, busy, profiles, onChoose, onRemove }: { label: string; value: string | null; busy: boolean; profiles: readonly { id: string; name: string }[]; onChoose(id: string | null): void; onRemove?: () => void }) {
  return (
    <fieldset className="calculator__role" disabled={busy}>
      <legend>{label}</legend>
      <select className="input" aria-label={label} value={value ?? ''} onChange={(e) => onChoose(e.target.value || null)}>
        <option value="">Choose a profile</option>
        {profiles.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
      {onRemove ? (
        <button type="button" className="button button--secondary" onClick={onRemove}>
          Remove {label}
        </button>
      ) : null}
    </fieldset>
  );
}

/** A mixture run's further replicates, known contributors and Add buttons (enabled as the machine allows). */
function MixtureSlots({ snapshot, mixture, send }: { snapshot: RunSnapshot; mixture: MixtureRun; send(event: AnalysisRunEvent): void }) {
  const busy = snapshot.hasTag('busy');
  return (
    <>
      {mixture.replicateProfileIds.map((id, index) => (
        <ProfileSelect key={`r${index}`} label={replicateLabel(index)} value={id} busy={busy} profiles={MIXTURE_CHOICES} onChoose={(profileId) => send({ type: 'replicate.choose', index, profileId })} onRemove={() => send({ type: 'replicate.remove', index })} />
      ))}
      {mixture.knownContributorIds.map((id, index) => (
        <ProfileSelect key={`k${index}`} label={knownContributorLabel(index)} value={id} busy={busy} profiles={MIXTURE_CHOICES} onChoose={(profileId) => send({ type: 'knownContributor.choose', index, profileId })} onRemove={() => send({ type: 'knownContributor.remove', index })} />
      ))}
      <div className="calculator__slot-actions">
        <button type="button" className="button button--secondary" disabled={!snapshot.can({ type: 'replicate.add' })} onClick={() => send({ type: 'replicate.add' })}>
          Add a replicate of the evidence
        </button>
        <button type="button" className="button button--secondary" disabled={!snapshot.can({ type: 'knownContributor.add' })} onClick={() => send({ type: 'knownContributor.add' })}>
          Add a known contributor
        </button>
      </div>
    </>
  );
}

/** The calculator reduced to what the machine decides: the choices, Run/Cancel, the blockers, the failure and the result. */
function RunScreen({ snapshot, send }: { snapshot: RunSnapshot; send(event: AnalysisRunEvent): void }) {
  const { context } = snapshot;
  const busy = snapshot.hasTag('busy');
  const blockers = context.showBlockers ? runBlockers(context) : [];
  const { kind } = context.analysis;
  const profiles = kind === 'Pedigree' ? PEDIGREE_PROFILES : kind === 'Mixture' ? MIXTURE_CHOICES : PROFILES;
  return (
    <section className="page" style={{ margin: '1rem' }}>
      <h1>{TITLES[kind] ?? 'Full siblings'}</h1>
      <p className="field__hint">
        Machine state: <strong>{JSON.stringify(snapshot.value)}</strong>
      </p>
      <div className="calculator__choices">
        {context.analysis.roles.map((role, i) => (
          <ProfileSelect key={role} label={role} value={context.profileIds[i] ?? null} busy={busy} profiles={profiles} onChoose={(profileId) => send({ type: 'profile.choose', role: i, profileId })} />
        ))}
        {context.mixture ? <MixtureSlots snapshot={snapshot} mixture={context.mixture} send={send} /> : null}
        <PopulationPicker populations={POPULATIONS} chosen={context.populationIds} disabled={busy} onToggle={(populationId) => send({ type: 'population.toggle', populationId })} />
        {context.mixture ? <MixtureParameters parameters={context.mixture.parameters} knownContributors={context.mixture.knownContributorIds.length} disabled={busy} send={send} /> : null}
      </div>
      <RunBlockers blockers={blockers} />
      <RunButtons busy={busy} onRun={() => send({ type: 'run.start' })} onCancel={() => send({ type: 'run.cancel' })} />
      {snapshot.matches('error') && context.error ? <RunFailure error={context.error} onRetry={() => send({ type: 'run.retry' })} onDismiss={() => send({ type: 'failure.dismiss' })} /> : null}
      {snapshot.matches('result') && context.result ? <AnalysisResultView result={context.result} /> : null}
    </section>
  );
}

/** The calculator in one state of the machine; events go nowhere (see Interactive). */
function RunState({ value, context }: { value: StateValue; context: Partial<AnalysisRunContext> }) {
  return <RunScreen snapshot={analysisRunMachine.resolveState({ value, context: { ...base, ...context } })} send={() => undefined} />;
}

const wait = (ms: number, signal: AbortSignal) => new Promise((resolve) => (signal.aborted ? resolve(undefined) : setTimeout(resolve, ms)));

function InteractiveRun() {
  const logic = useMemo(
    () =>
      analysisRunMachine.provide({
        actors: {
          analyze: fromPromise(async ({ input, signal }) => {
            await wait(2000, signal);
            if (input.body.populationIds.includes(POPULATIONS[1]!.id)) throw { status: 404, serverMessage: `No population with id ${POPULATIONS[1]!.id}` };
            return RESULT;
          }),
        },
      }),
    [],
  );
  const [snapshot, send] = useMachine(logic, { input: { analysis: ANALYSIS } });
  return <RunScreen snapshot={snapshot} send={send} />;
}

const meta = { title: 'Machines/Analysis run', component: RunState, args: { context: {} } } satisfies Meta<typeof RunState>;
export default meta;
type Story = StoryObj<typeof meta>;

/** editing: nothing chosen yet. */
export const Editing: Story = { args: { value: 'editing' } };
/** editing after Run with choices missing: what is missing is listed. */
export const EditingWithBlockers: Story = { args: { value: 'editing', context: { profileIds: [PROFILES[0]!.id, null], showBlockers: true } } };
/** editing with every choice made: Run sends the request. */
export const Ready: Story = { args: { value: 'editing', context: ready } };
/** running: the choices are locked; Cancel aborts the request. */
export const Running: Story = { args: { value: 'running', context: ready } };
/** result: per population the combined index, probability, chart and marker table. */
export const Result: Story = { args: { value: 'result', context: { ...ready, result: RESULT } } };
/** result of a pedigree analysis of four roles: hypotheses, mutation models, per marker L(H1), L(H2), LR and verdict; FGA needs a mutation. */
export const PedigreeResult: Story = {
  args: { value: 'result', context: { analysis: PEDIGREE_ANALYSIS, profileIds: PEDIGREE_PROFILES.map((p) => p.id), populationIds: [POPULATIONS[0]!.id], result: PEDIGREE_RESULT } },
};
/** error: the server's message, Try again or Dismiss; the choices stay. */
export const Failed: Story = { args: { value: 'error', context: { ...ready, error: { status: 404, message: `No population with id ${POPULATIONS[1]!.id}` } } } };

const mixtureBase = initialRunContext({ analysis: MIXTURE_ANALYSIS });
const mixtureRun = (run: Partial<MixtureRun>): Partial<AnalysisRunContext> => ({ ...mixtureBase, mixture: { ...mixtureBase.mixture!, ...run } });
const mixtureReady: Partial<AnalysisRunContext> = {
  ...mixtureRun({ replicateProfileIds: [MIXTURE_PROFILES[2].id], knownContributorIds: [MIXTURE_PROFILES[3].id] }),
  profileIds: [MIXTURE_PROFILES[0].id, MIXTURE_PROFILES[1].id],
  populationIds: [POPULATIONS[0]!.id],
};

/** editing a mixture analysis (issue 17): the two roles, Add buttons and the parameters prefilled from the analysis. */
export const MixtureEditing: Story = { args: { value: 'editing', context: mixtureBase } };
/** editing a mixture with a replicate and a known contributor chosen and drop-out fixed per contributor (person of interest, known contributor, unknown). */
export const MixtureFixedPerContributor: Story = {
  args: { value: 'editing', context: { ...mixtureReady, mixture: { ...mixtureReady.mixture!, parameters: { ...mixtureDraft(MIXTURE_SETTING), dropout: 'each', dropoutEach: ['0.05', '0.1', '0.2'] } } } },
};
/** editing a mixture with drop-out fixed per contributor under each hypothesis (issue 30): Hd's unknown in the person of interest's place at the unknowns' 0.2. */
export const MixtureFixedPerHypothesis: Story = {
  args: {
    value: 'editing',
    context: { ...mixtureReady, mixture: { ...mixtureReady.mixture!, parameters: { ...mixtureDraft(MIXTURE_SETTING), contributors: '3', dropout: 'each', dropoutEach: ['0.05', '0.1', '0.2'], dropoutHdEach: ['0.2', '0.1', '0.2'] } } },
  },
};
/** editing after Run: an empty replicate slot, two known contributors where Hp holds only 2 contributors, θ of 1.5. */
export const MixtureWithBlockers: Story = {
  args: {
    value: 'editing',
    context: {
      ...mixtureRun({ replicateProfileIds: [null], knownContributorIds: [MIXTURE_PROFILES[3].id, MIXTURE_PROFILES[2].id], parameters: { ...mixtureDraft(MIXTURE_SETTING), contributors: '2', dropoutEach: ['', ''], theta: '1.5' } }),
      profileIds: [MIXTURE_PROFILES[0].id, MIXTURE_PROFILES[1].id],
      populationIds: [POPULATIONS[0]!.id],
      showBlockers: true,
    },
  },
};
/** result of a mixture run: Hp and Hd, the LR beside both drop-out estimates, the parameters used, per marker Pr(E|Hp), Pr(E|Hd) and LR, a marker not weighed. */
export const MixtureResult: Story = { args: { value: 'result', context: { ...mixtureReady, result: MIXTURE_RESULT } } };
/** error of a mixture run: the server's refusal (no simulated drop-out reproduced the evidence under Hd). */
export const MixtureFailed: Story = {
  args: {
    value: 'error',
    context: { ...mixtureReady, error: { status: 400, message: 'FBI 2015 Caucasian: No simulated drop-out reproduced the evidence\'s allele count under Hd; check the number of contributors, or fix the drop-out.' } },
  },
};

export const Interactive: Story = { args: { value: 'editing' }, render: () => <InteractiveRun /> };
