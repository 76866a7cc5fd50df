import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, initialTransition, transition, waitFor, type SnapshotFrom, type StateValue } from 'xstate';
import type { AnalysisResult } from '../../../core/schemas/analyses';
import type { MixtureSetting } from '../../../core/schemas/mixtures';
import {
  analysisRunMachine,
  analyzeRequest,
  contributorLabels,
  hdContributorLabels,
  mixtureDraft,
  readMixtureParameters,
  runBlockers,
  type AnalysisRunContext,
  type AnalyzeRequest,
  type MixtureRun,
  type RunAnalysis,
} from '../../../machines/analysisRun.machine';
import { GENERIC_FAILURE } from '../../../machines/recordEditor.machine';

const SIBLINGS: RunAnalysis = { id: 'a1a1a1a1-0000-4000-8000-000000000001', kind: 'Computational', roles: ['Person 1', 'Person 2'] };
const EXCLUSION: RunAnalysis = { id: 'a1a1a1a1-0000-4000-8000-000000000002', kind: 'Exclusion', roles: ['Parent', 'Child'] };
const WIFE_AND_CHILDREN: RunAnalysis = { id: 'a1a1a1a1-0000-4000-8000-000000000003', kind: 'Pedigree', roles: ['Missing person', 'Wife', 'Child 1', 'Child 2'] };
const P1 = 'b2b2b2b2-0000-4000-8000-000000000001';
const P2 = 'b2b2b2b2-0000-4000-8000-000000000002';
const P3 = 'b2b2b2b2-0000-4000-8000-000000000003';
const P4 = 'b2b2b2b2-0000-4000-8000-000000000004';
const POP_A = 'c3c3c3c3-0000-4000-8000-000000000001';
const POP_B = 'c3c3c3c3-0000-4000-8000-000000000002';

const resultFor = (request: AnalyzeRequest): AnalysisResult => ({
  analysisId: request.analysisId,
  analysisName: 'Full siblings',
  analysisLabel: 'Full siblings',
  kind: 'Computational',
  roles: [],
  constants: [],
  missingPatterns: [],
  populations: request.body.populationIds.map((populationId) => ({
    populationId,
    populationName: 'FBI 2015 Caucasian',
    populationSource: 'Moretti et al. (2016)',
    synthetic: false,
    markers: [],
    combinedIndex: 1234.5,
    log10: Math.log10(1234.5),
    probability: '99.92% (1.23e+3)',
    haplotypeCount: null,
  })),
  exclusion: null,
  pedigree: null,
  mutation: null,
  computedAt: '2026-11-22T10:00:00.000Z',
});

type Snapshot = SnapshotFrom<typeof analysisRunMachine>;

const ready: Partial<AnalysisRunContext> = { profileIds: [P1, P2], populationIds: [POP_A] };

/** A snapshot in `value` with `context`, without running any actor. */
function at(value: StateValue, context: Partial<AnalysisRunContext> = {}): Snapshot {
  return analysisRunMachine.resolveState({
    value,
    context: { analysis: SIBLINGS, profileIds: [null, null], populationIds: [], mixture: null, result: null, error: null, showBlockers: false, ...context },
  });
}

/** Runs the machine with a fake analyze call, recording what it was asked and whether it was aborted. */
function start(analyze: (request: AnalyzeRequest, signal: AbortSignal) => Promise<AnalysisResult> = async (r) => resultFor(r), analysis = SIBLINGS) {
  const sent: AnalyzeRequest[] = [];
  const signals: AbortSignal[] = [];
  const logic = analysisRunMachine.provide({
    actors: {
      analyze: fromPromise(async ({ input, signal }: { input: AnalyzeRequest; signal: AbortSignal }) => {
        sent.push(input);
        signals.push(signal);
        return analyze(input, signal);
      }),
    },
  });
  const actor = createActor(logic, { input: { analysis } }).start();
  return { actor, sent, signals };
}

describe('runBlockers', () => {
  it('names every role without a profile and asks for a population for a computational analysis', () => {
    expect(runBlockers({ analysis: SIBLINGS, profileIds: [null, null], populationIds: [] })).toEqual([
      'Choose a profile for Person 1',
      'Choose a profile for Person 2',
      'Choose at least one population',
    ]);
    expect(runBlockers({ analysis: SIBLINGS, profileIds: [P1, null], populationIds: [POP_A] })).toEqual(['Choose a profile for Person 2']);
    expect(runBlockers({ analysis: SIBLINGS, profileIds: [P1, P2], populationIds: [POP_A] })).toEqual([]);
  });

  it('refuses the same profile in two roles', () => {
    expect(runBlockers({ analysis: SIBLINGS, profileIds: [P1, P1], populationIds: [POP_A] })).toEqual(['Choose a different profile for each role']);
  });

  it('asks a pedigree analysis of four roles for every profile and a population', () => {
    expect(runBlockers({ analysis: WIFE_AND_CHILDREN, profileIds: [P1, P2, null, null], populationIds: [] })).toEqual([
      'Choose a profile for Child 1',
      'Choose a profile for Child 2',
      'Choose at least one population',
    ]);
    expect(runBlockers({ analysis: WIFE_AND_CHILDREN, profileIds: [P1, P2, P3, P1], populationIds: [POP_A] })).toEqual(['Choose a different profile for each role']);
    expect(runBlockers({ analysis: WIFE_AND_CHILDREN, profileIds: [P1, P2, P3, P4], populationIds: [POP_A] })).toEqual([]);
  });

  it('needs no population for an exclusion analysis', () => {
    expect(runBlockers({ analysis: EXCLUSION, profileIds: [P1, P2], populationIds: [] })).toEqual([]);
  });
});

describe('analyzeRequest', () => {
  it('sends the profiles in role order and the chosen populations', () => {
    expect(analyzeRequest({ analysis: SIBLINGS, profileIds: [P2, P1], populationIds: [POP_B, POP_A] })).toEqual({
      analysisId: SIBLINGS.id,
      body: { profileIds: [P2, P1], populationIds: [POP_B, POP_A] },
    });
  });

  it('sends the four profiles of a pedigree analysis and its populations', () => {
    expect(analyzeRequest({ analysis: WIFE_AND_CHILDREN, profileIds: [P1, P2, P3, P4], populationIds: [POP_A] })).toEqual({
      analysisId: WIFE_AND_CHILDREN.id,
      body: { profileIds: [P1, P2, P3, P4], populationIds: [POP_A] },
    });
  });

  it('sends no populations for an exclusion analysis, even when some were ticked', () => {
    expect(analyzeRequest({ analysis: EXCLUSION, profileIds: [P1, P2], populationIds: [POP_A] }).body.populationIds).toEqual([]);
  });
});

describe('analysisRun machine: pure transitions', () => {
  it('starts editing with one empty choice per role, or the preselected profiles', () => {
    const [fresh] = initialTransition(analysisRunMachine, { analysis: SIBLINGS });
    expect(fresh.value).toBe('editing');
    expect(fresh.context).toEqual({ analysis: SIBLINGS, profileIds: [null, null], populationIds: [], mixture: null, result: null, error: null, showBlockers: false });
    const [preselected] = initialTransition(analysisRunMachine, { analysis: SIBLINGS, profileIds: [P1], populationIds: [POP_A] });
    expect(preselected.context.profileIds).toEqual([P1, null]);
    expect(preselected.context.populationIds).toEqual([POP_A]);
  });

  it('chooses and clears a profile per role', () => {
    const [chosen] = transition(analysisRunMachine, at('editing'), { type: 'profile.choose', role: 1, profileId: P2 });
    expect(chosen.context.profileIds).toEqual([null, P2]);
    const [cleared] = transition(analysisRunMachine, chosen, { type: 'profile.choose', role: 1, profileId: null });
    expect(cleared.context.profileIds).toEqual([null, null]);
  });

  it('ticks and unticks populations, keeping the order they were ticked in', () => {
    const [one] = transition(analysisRunMachine, at('editing'), { type: 'population.toggle', populationId: POP_B });
    const [two] = transition(analysisRunMachine, one, { type: 'population.toggle', populationId: POP_A });
    expect(two.context.populationIds).toEqual([POP_B, POP_A]);
    const [back] = transition(analysisRunMachine, two, { type: 'population.toggle', populationId: POP_B });
    expect(back.context.populationIds).toEqual([POP_A]);
  });

  it('stays editing and shows why when Run is pressed with choices missing', () => {
    const [snapshot] = transition(analysisRunMachine, at('editing', { profileIds: [P1, null], populationIds: [POP_A] }), { type: 'run.start' });
    expect(snapshot.value).toBe('editing');
    expect(snapshot.context.showBlockers).toBe(true);
  });

  it('runs when the choices are complete, as busy', () => {
    const [snapshot] = transition(analysisRunMachine, at('editing', { ...ready, showBlockers: true }), { type: 'run.start' });
    expect(snapshot.value).toBe('running');
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(snapshot.context.showBlockers).toBe(false);
  });

  it('ignores choices while running (the request already left) and goes back to editing on cancel', () => {
    const running = at('running', ready);
    expect(running.can({ type: 'profile.choose', role: 0, profileId: P2 })).toBe(false);
    expect(running.can({ type: 'population.toggle', populationId: POP_B })).toBe(false);
    expect(running.can({ type: 'run.start' })).toBe(false);
    const [cancelled] = transition(analysisRunMachine, running, { type: 'run.cancel' });
    expect(cancelled.value).toBe('editing');
    expect(cancelled.context.profileIds).toEqual([P1, P2]);
  });

  it('drops a result when a choice changes, so the numbers shown always belong to the choices shown', () => {
    const withResult = at('result', { ...ready, result: resultFor(analyzeRequest({ analysis: SIBLINGS, profileIds: [P1, P2], populationIds: [POP_A] })) });
    const [changedProfile] = transition(analysisRunMachine, withResult, { type: 'profile.choose', role: 0, profileId: P2 });
    expect(changedProfile.value).toBe('editing');
    expect(changedProfile.context.result).toBeNull();
    const [changedPopulation] = transition(analysisRunMachine, withResult, { type: 'population.toggle', populationId: POP_B });
    expect(changedPopulation.value).toBe('editing');
    expect(changedPopulation.context.result).toBeNull();
    expect(changedPopulation.context.populationIds).toEqual([POP_A, POP_B]);
  });

  it('runs again from a result', () => {
    const [again] = transition(analysisRunMachine, at('result', ready), { type: 'run.start' });
    expect(again.value).toBe('running');
  });

  it('retries, dismisses or edits after a failure', () => {
    const failed = at('error', { ...ready, error: { status: 400, message: 'Choose at least one population' } });
    const [retried] = transition(analysisRunMachine, failed, { type: 'run.retry' });
    expect(retried.value).toBe('running');
    expect(retried.context.error).toBeNull();
    const [dismissed] = transition(analysisRunMachine, failed, { type: 'failure.dismiss' });
    expect(dismissed.value).toBe('editing');
    expect(dismissed.context.error).toBeNull();
    const [edited] = transition(analysisRunMachine, failed, { type: 'population.toggle', populationId: POP_B });
    expect(edited.value).toBe('editing');
    expect(edited.context.error).toBeNull();
  });

  it('does not retry a failure whose choices were made incomplete meanwhile', () => {
    const [snapshot] = transition(analysisRunMachine, at('error', { profileIds: [P1, null], populationIds: [POP_A], error: { status: 0, message: GENERIC_FAILURE } }), { type: 'run.retry' });
    expect(snapshot.value).toBe('editing');
    expect(snapshot.context.showBlockers).toBe(true);
  });
});

describe('analysisRun machine: with the analyze call', () => {
  function choose(actor: ReturnType<typeof start>['actor']) {
    actor.send({ type: 'profile.choose', role: 0, profileId: P1 });
    actor.send({ type: 'profile.choose', role: 1, profileId: P2 });
    actor.send({ type: 'population.toggle', populationId: POP_A });
  }

  it('runs a pedigree analysis once its four roles and a population are chosen', async () => {
    const { actor, sent } = start(undefined, WIFE_AND_CHILDREN);
    expect(actor.getSnapshot().context.profileIds).toEqual([null, null, null, null]);
    [P1, P2, P3, P4].forEach((profileId, role) => actor.send({ type: 'profile.choose', role, profileId }));
    actor.send({ type: 'population.toggle', populationId: POP_A });
    actor.send({ type: 'run.start' });
    await waitFor(actor, (s) => s.matches('result'));
    expect(sent).toEqual([{ analysisId: WIFE_AND_CHILDREN.id, body: { profileIds: [P1, P2, P3, P4], populationIds: [POP_A] } }]);
  });

  it('sends the choices and shows the result', async () => {
    const { actor, sent } = start();
    choose(actor);
    actor.send({ type: 'run.start' });
    const done = await waitFor(actor, (s) => s.matches('result'));
    expect(sent).toEqual([{ analysisId: SIBLINGS.id, body: { profileIds: [P1, P2], populationIds: [POP_A] } }]);
    expect(done.context.result?.populations[0]?.probability).toBe('99.92% (1.23e+3)');
  });

  it("shows the server's message when the analysis is refused", async () => {
    const { actor } = start(async () => {
      throw { status: 400, serverMessage: 'Population Y-STR US holds Y-STR haplotypes; this analysis needs autosomal frequencies' };
    });
    choose(actor);
    actor.send({ type: 'run.start' });
    const failed = await waitFor(actor, (s) => s.matches('error'));
    expect(failed.context.error).toEqual({ status: 400, message: 'Population Y-STR US holds Y-STR haplotypes; this analysis needs autosomal frequencies' });
    expect(failed.context.result).toBeNull();
  });

  it('says the request failed when no answer came', async () => {
    const { actor } = start(async () => {
      throw new TypeError('Failed to fetch');
    });
    choose(actor);
    actor.send({ type: 'run.start' });
    const failed = await waitFor(actor, (s) => s.matches('error'));
    expect(failed.context.error).toEqual({ status: 0, message: GENERIC_FAILURE });
  });

  it('aborts the request on cancel and never shows its late answer', async () => {
    let answer: (result: AnalysisResult) => void = () => undefined;
    const { actor, signals, sent } = start((request) => new Promise((resolve) => (answer = () => resolve(resultFor(request)))));
    choose(actor);
    actor.send({ type: 'run.start' });
    expect(actor.getSnapshot().value).toBe('running');
    actor.send({ type: 'run.cancel' });
    expect(signals[0]?.aborted).toBe(true);
    answer(resultFor(sent[0]!));
    await Promise.resolve();
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.result).toBeNull();
  });
});

// The seed's 'Mixture, 2 contributors' (issue 17): drop-in 0.05, θ 0.01, conservative drop-out.
const SEED_SETTING: MixtureSetting = { contributors: 2, dropout: { mode: 'estimated', estimate: 'conservative' }, dropIn: 0.05, theta: 0.01, personOfInterestTypedUnderHd: true, normalizeFrequencies: false };
const MIXTURE: RunAnalysis = { id: 'a1a1a1a1-0000-4000-8000-000000000004', kind: 'Mixture', roles: ['Evidence', 'Person of interest'], mixture: SEED_SETTING };
const P5 = 'b2b2b2b2-0000-4000-8000-000000000005';

/** A mixture run's context: the seed's parameters unless `parameters` changes some. */
const mixtureRun = (run: Partial<Omit<MixtureRun, 'parameters'>> = {}, parameters: Partial<MixtureRun['parameters']> = {}): MixtureRun => ({
  replicateProfileIds: [],
  knownContributorIds: [],
  ...run,
  parameters: { ...mixtureDraft(SEED_SETTING), ...parameters },
});
const mixtureReady = (run: Partial<Omit<MixtureRun, 'parameters'>> = {}, parameters: Partial<MixtureRun['parameters']> = {}): Partial<AnalysisRunContext> => ({
  analysis: MIXTURE,
  profileIds: [P1, P2],
  populationIds: [POP_A],
  mixture: mixtureRun(run, parameters),
});

describe('a mixture run’s parameters', () => {
  it('start from the analysis’s own: the seed’s conservative drop-out, drop-in 0.05 and θ 0.01', () => {
    expect(mixtureDraft(SEED_SETTING)).toEqual({ contributors: '2', dropout: 'conservative', dropoutAll: '', dropoutEach: ['', ''], dropoutHdEach: ['', ''], dropIn: '0.05', theta: '0.01', personOfInterestTypedUnderHd: true, normalizeFrequencies: false, estimateDropout: false });
  });

  it('asks for both drop-out estimates only when the reader ticks the box', () => {
    const asked = mixtureReady({ replicateProfileIds: [], knownContributorIds: [] }, { estimateDropout: true }) as AnalysisRunContext;
    expect(analyzeRequest(asked).body.mixture).toMatchObject({ estimateDropout: true });
  });

  it('start from a fixed drop-out, one for all or one per contributor', () => {
    const all = mixtureDraft({ ...SEED_SETTING, contributors: 3, dropout: { mode: 'fixed', values: [0.1] } });
    expect([all.dropout, all.dropoutAll, all.dropoutEach]).toEqual(['all', '0.1', ['0.1', '0.1', '0.1']]);
    const each = mixtureDraft({ ...SEED_SETTING, dropout: { mode: 'fixed', values: [0.05, 0.3] } });
    expect([each.dropout, each.dropoutEach]).toEqual(['each', ['0.05', '0.3']]);
  });

  it('start from LRmix’s defaults when the analysis has none', () => {
    expect(mixtureDraft(null)).toEqual(mixtureDraft(SEED_SETTING));
  });

  it('read as the setting the server takes, a decimal comma included', () => {
    expect(readMixtureParameters(mixtureDraft(SEED_SETTING), 0)).toEqual({ setting: SEED_SETTING, errors: null });
    const fixed = readMixtureParameters({ ...mixtureDraft(SEED_SETTING), contributors: '3', dropout: 'each', dropoutEach: ['0,05', '0.1', ' 0.2 '], dropIn: '0', theta: '0', normalizeFrequencies: true }, 1);
    expect(fixed.setting).toEqual({ contributors: 3, dropout: { mode: 'fixed', values: [0.05, 0.1, 0.2] }, dropIn: 0, theta: 0, personOfInterestTypedUnderHd: true, normalizeFrequencies: true });
    expect(readMixtureParameters({ ...mixtureDraft(SEED_SETTING), dropout: 'maximum-likelihood' }, 0).setting?.dropout).toEqual({ mode: 'estimated', estimate: 'maximum-likelihood' });
  });

  it('name each wrong field: contributors out of range or fewer than Hp holds, probabilities of 1 or more, empty values', () => {
    const draft = mixtureDraft(SEED_SETTING);
    expect(readMixtureParameters({ ...draft, contributors: '6' }, 0).errors).toEqual({ contributors: 'A whole number from 1 to 5' });
    expect(readMixtureParameters({ ...draft, contributors: '1.5' }, 0).errors).toEqual({ contributors: 'A whole number from 1 to 5' });
    expect(readMixtureParameters({ ...draft, contributors: '2' }, 2).errors).toEqual({ contributors: 'At least 3: the person of interest and 2 known contributors' });
    expect(readMixtureParameters({ ...draft, dropIn: '1', theta: '' }, 0).errors).toEqual({ dropIn: 'A number from 0 to below 1, e.g. 0.05', theta: 'Required' });
    expect(readMixtureParameters({ ...draft, dropout: 'all', dropoutAll: '-0.1' }, 0).errors).toEqual({ dropout: { all: 'A number from 0 to below 1, e.g. 0.05' } });
    expect(readMixtureParameters({ ...draft, dropout: 'each', dropoutEach: ['0.1', 'x'] }, 0).errors).toEqual({ dropout: { 1: 'A number from 0 to below 1, e.g. 0.05' } });
  });

  it("send Hd's own drop-outs when typed (issue 30), and none, LRmix's convention, when all are blank", () => {
    const draft = { ...mixtureDraft(SEED_SETTING), contributors: '3', dropout: 'each' as const, dropoutEach: ['0.1', '0.2', '0.3'], dropoutHdEach: ['', '', ''] };
    expect(readMixtureParameters(draft, 1).setting?.dropout).toEqual({ mode: 'fixed', values: [0.1, 0.2, 0.3] });
    expect(readMixtureParameters({ ...draft, dropoutHdEach: ['0.3', '0.2', '0,3'] }, 1).setting?.dropout).toEqual({ mode: 'fixed', values: [0.1, 0.2, 0.3], hdValues: [0.3, 0.2, 0.3] });
    // One typed: each is needed, named as Run lists it.
    expect(readMixtureParameters({ ...draft, dropoutHdEach: ['0.3', '', '0.3'] }, 1).errors).toEqual({ dropout: { hd1: 'Required' } });
    const context = mixtureReady({ knownContributorIds: [P3] }, { ...draft, dropoutHdEach: ['0.3', '', '0.3'] }) as AnalysisRunContext;
    expect(runBlockers(context)).toEqual(['Drop-out under Hd of Known contributor 1: Required']);
    // A stored setting's Hd drop-outs fill the form.
    expect(mixtureDraft({ ...SEED_SETTING, contributors: 2, dropout: { mode: 'fixed', values: [0.1, 0.3], hdValues: [0.3, 0.3] } }).dropoutHdEach).toEqual(['0.3', '0.3']);
  });

  it("keep Hd's drop-outs through a change of the number of contributors, the new ones blank", () => {
    let [snapshot] = transition(analysisRunMachine, at('editing', mixtureReady({}, { dropout: 'each', dropoutEach: ['0.2', '0.3'], dropoutHdEach: ['0.3', '0.3'] })), { type: 'parameters.editDropoutHd', contributor: 1, value: '0.25' });
    [snapshot] = transition(analysisRunMachine, snapshot, { type: 'parameters.edit', field: 'contributors', value: '3' });
    expect(snapshot.context.mixture!.parameters.dropoutHdEach).toEqual(['0.3', '0.25', '']);
    expect(hdContributorLabels(3, 1)).toEqual(['Unknown in the person of interest’s place', 'Known contributor 1', 'Unknown 1']);
  });

  it('name the contributors in drop-out order: the person of interest, the known contributors, the unknowns', () => {
    expect(contributorLabels(4, 1)).toEqual(['Person of interest', 'Known contributor 1', 'Unknown 1', 'Unknown 2']);
  });
});

describe('runBlockers and analyzeRequest of a mixture run', () => {
  it('asks for the profile of each added replicate and known contributor, or its removal', () => {
    expect(runBlockers({ ...mixtureReady({ replicateProfileIds: [P3, null], knownContributorIds: [null] }), analysis: MIXTURE } as AnalysisRunContext)).toEqual([
      'Choose a profile for Evidence (replicate 3), or remove it',
      'Choose a profile for Known contributor 1, or remove it',
    ]);
  });

  it('refuses one profile as two of the evidence’s replicates or as a replicate and a known contributor', () => {
    expect(runBlockers(mixtureReady({ replicateProfileIds: [P1] }) as AnalysisRunContext)).toEqual(['Choose a different profile for each role, replicate and known contributor']);
    expect(runBlockers(mixtureReady({ replicateProfileIds: [P3], knownContributorIds: [P3] }) as AnalysisRunContext)).toEqual(['Choose a different profile for each role, replicate and known contributor']);
  });

  it('lists every wrong parameter with its field’s name, the contributor’s for a drop-out', () => {
    const context = mixtureReady({ knownContributorIds: [P3, P4] }, { contributors: '2', dropout: 'each', dropoutEach: ['0.1', '2'], dropIn: '', theta: '1' }) as AnalysisRunContext;
    expect(runBlockers(context)).toEqual([
      'Number of contributors: At least 3: the person of interest and 2 known contributors',
      'Drop-out of Known contributor 1: A number from 0 to below 1, e.g. 0.05',
      'Drop-in: Required',
      'θ: A number from 0 to below 1, e.g. 0.05',
    ]);
    expect(runBlockers(mixtureReady({}, { dropout: 'all', dropoutAll: '' }) as AnalysisRunContext)).toEqual(['Drop-out: Required']);
  });

  it('sends the replicates, the known contributors and the parameters as typed', () => {
    const context = mixtureReady({ replicateProfileIds: [P3], knownContributorIds: [P4] }, { contributors: '3', dropout: 'each', dropoutEach: ['0.1', '0.05', '0.2'], theta: '0.03' }) as AnalysisRunContext;
    expect(runBlockers(context)).toEqual([]);
    expect(analyzeRequest(context)).toEqual({
      analysisId: MIXTURE.id,
      body: {
        profileIds: [P1, P2],
        populationIds: [POP_A],
        mixture: { replicateProfileIds: [P3], knownContributorIds: [P4], estimateDropout: false, setting: { contributors: 3, dropout: { mode: 'fixed', values: [0.1, 0.05, 0.2] }, dropIn: 0.05, theta: 0.03, personOfInterestTypedUnderHd: true, normalizeFrequencies: false } },
      },
    });
  });
});

describe('analysisRun machine: a mixture run', () => {
  it('starts with the analysis’s parameters, no further replicate and no known contributor; other kinds have no mixture part', () => {
    const [fresh] = initialTransition(analysisRunMachine, { analysis: MIXTURE });
    expect(fresh.context.mixture).toEqual({ replicateProfileIds: [], knownContributorIds: [], parameters: mixtureDraft(SEED_SETTING) });
    expect(initialTransition(analysisRunMachine, { analysis: SIBLINGS })[0].context.mixture).toBeNull();
  });

  it('adds, chooses and removes replicates of the evidence, the later ones moving up', () => {
    let snapshot = at('editing', mixtureReady());
    for (const event of [
      { type: 'replicate.add' },
      { type: 'replicate.add' },
      { type: 'replicate.choose', index: 0, profileId: P3 },
      { type: 'replicate.choose', index: 1, profileId: P4 },
    ] as const) [snapshot] = transition(analysisRunMachine, snapshot, event);
    expect(snapshot.context.mixture!.replicateProfileIds).toEqual([P3, P4]);
    [snapshot] = transition(analysisRunMachine, snapshot, { type: 'replicate.remove', index: 0 });
    expect(snapshot.context.mixture!.replicateProfileIds).toEqual([P4]);
  });

  it('offers at most 10 replicates in all and 4 known contributors', () => {
    const full = at('editing', mixtureReady({ replicateProfileIds: Array.from({ length: 9 }, () => null), knownContributorIds: [null, null, null, null] }));
    expect(full.can({ type: 'replicate.add' })).toBe(false);
    expect(full.can({ type: 'knownContributor.add' })).toBe(false);
    const room = at('editing', mixtureReady({ replicateProfileIds: Array.from({ length: 8 }, () => null), knownContributorIds: [null, null, null] }));
    expect(room.can({ type: 'replicate.add' })).toBe(true);
    expect(room.can({ type: 'knownContributor.add' })).toBe(true);
  });

  it('adds, chooses and removes known contributors', () => {
    let [snapshot] = transition(analysisRunMachine, at('editing', mixtureReady()), { type: 'knownContributor.add' });
    [snapshot] = transition(analysisRunMachine, snapshot, { type: 'knownContributor.choose', index: 0, profileId: P5 });
    expect(snapshot.context.mixture!.knownContributorIds).toEqual([P5]);
    [snapshot] = transition(analysisRunMachine, snapshot, { type: 'knownContributor.choose', index: 0, profileId: null });
    expect(snapshot.context.mixture!.knownContributorIds).toEqual([null]);
    [snapshot] = transition(analysisRunMachine, snapshot, { type: 'knownContributor.remove', index: 0 });
    expect(snapshot.context.mixture!.knownContributorIds).toEqual([]);
  });

  it('ignores a replicate, known contributor or contributor’s drop-out that is not there', () => {
    const snapshot = at('editing', mixtureReady({ replicateProfileIds: [P3], knownContributorIds: [P4] }));
    expect(snapshot.can({ type: 'replicate.choose', index: 1, profileId: P5 })).toBe(false);
    expect(snapshot.can({ type: 'replicate.remove', index: -1 })).toBe(false);
    expect(snapshot.can({ type: 'knownContributor.choose', index: 1, profileId: P5 })).toBe(false);
    expect(snapshot.can({ type: 'knownContributor.remove', index: 1 })).toBe(false);
    expect(snapshot.can({ type: 'parameters.editDropout', contributor: 2, value: '0.1' })).toBe(false);
    expect(snapshot.can({ type: 'parameters.editDropout', contributor: 1, value: '0.1' })).toBe(true);
  });

  it('keeps each typed parameter, a half-typed one included, and resizes the per-contributor drop-outs with the number of contributors', () => {
    let snapshot = at('editing', mixtureReady({}, { dropout: 'each', dropoutAll: '0.1', dropoutEach: ['0.2', '0.3'] }));
    [snapshot] = transition(analysisRunMachine, snapshot, { type: 'parameters.edit', field: 'contributors', value: '3' });
    expect(snapshot.context.mixture!.parameters.dropoutEach).toEqual(['0.2', '0.3', '0.1']);
    [snapshot] = transition(analysisRunMachine, snapshot, { type: 'parameters.edit', field: 'contributors', value: '' });
    expect(snapshot.context.mixture!.parameters).toMatchObject({ contributors: '', dropoutEach: ['0.2', '0.3', '0.1'] });
    [snapshot] = transition(analysisRunMachine, snapshot, { type: 'parameters.edit', field: 'contributors', value: '1' });
    expect(snapshot.context.mixture!.parameters.dropoutEach).toEqual(['0.2']);
    [snapshot] = transition(analysisRunMachine, snapshot, { type: 'parameters.editDropout', contributor: 0, value: '0.' });
    [snapshot] = transition(analysisRunMachine, snapshot, { type: 'parameters.edit', field: 'dropIn', value: '0.1' });
    [snapshot] = transition(analysisRunMachine, snapshot, { type: 'parameters.edit', field: 'theta', value: '0.02' });
    [snapshot] = transition(analysisRunMachine, snapshot, { type: 'parameters.edit', field: 'dropoutAll', value: '0.15' });
    expect(snapshot.context.mixture!.parameters).toMatchObject({ dropoutEach: ['0.'], dropIn: '0.1', theta: '0.02', dropoutAll: '0.15' });
  });

  it('switches how drop-out is set and both switches, and resets to the analysis’s own parameters', () => {
    let snapshot = at('editing', mixtureReady());
    [snapshot] = transition(analysisRunMachine, snapshot, { type: 'parameters.chooseDropout', dropout: 'maximum-likelihood' });
    [snapshot] = transition(analysisRunMachine, snapshot, { type: 'parameters.check', field: 'personOfInterestTypedUnderHd', checked: false });
    [snapshot] = transition(analysisRunMachine, snapshot, { type: 'parameters.check', field: 'normalizeFrequencies', checked: true });
    expect(snapshot.context.mixture!.parameters).toMatchObject({ dropout: 'maximum-likelihood', personOfInterestTypedUnderHd: false, normalizeFrequencies: true });
    [snapshot] = transition(analysisRunMachine, snapshot, { type: 'parameters.reset' });
    expect(snapshot.context.mixture!.parameters).toEqual(mixtureDraft(SEED_SETTING));
  });

  it('drops a result when a replicate, known contributor or parameter changes', () => {
    const withResult = at('result', { ...mixtureReady(), result: resultFor(analyzeRequest(mixtureReady() as AnalysisRunContext)) });
    for (const event of [
      { type: 'replicate.add' },
      { type: 'knownContributor.add' },
      { type: 'parameters.edit', field: 'theta', value: '0.02' },
      { type: 'parameters.chooseDropout', dropout: 'all' },
      { type: 'parameters.editDropout', contributor: 0, value: '0.1' },
      { type: 'parameters.check', field: 'normalizeFrequencies', checked: true },
      { type: 'parameters.reset' },
    ] as const) {
      const [changed] = transition(analysisRunMachine, withResult, event);
      expect(changed.value, event.type).toBe('editing');
      expect(changed.context.result, event.type).toBeNull();
    }
  });

  it('changes nothing while running, and takes no mixture choices for other kinds of analysis', () => {
    const running = at('running', mixtureReady());
    expect(running.can({ type: 'replicate.add' })).toBe(false);
    expect(running.can({ type: 'parameters.edit', field: 'theta', value: '0.02' })).toBe(false);
    const siblings = at('editing', ready);
    expect(siblings.can({ type: 'replicate.add' })).toBe(false);
    expect(siblings.can({ type: 'knownContributor.add' })).toBe(false);
    expect(siblings.can({ type: 'parameters.edit', field: 'theta', value: '0.02' })).toBe(false);
    expect(siblings.can({ type: 'parameters.reset' })).toBe(false);
  });

  it('stays editing with the reasons listed when a parameter is wrong', () => {
    const [snapshot] = transition(analysisRunMachine, at('editing', mixtureReady({}, { theta: '1.5' })), { type: 'run.start' });
    expect(snapshot.value).toBe('editing');
    expect(snapshot.context.showBlockers).toBe(true);
  });

  it('sends the replicate, the known contributor and the edited parameters, and shows the server’s refusal', async () => {
    const { actor, sent } = start(async () => {
      throw { status: 400, serverMessage: 'FBI 2015 Caucasian: No simulated drop-out reproduced the evidence\'s allele count under Hd; check the number of contributors, or fix the drop-out.' };
    }, MIXTURE);
    actor.send({ type: 'profile.choose', role: 0, profileId: P1 });
    actor.send({ type: 'profile.choose', role: 1, profileId: P2 });
    actor.send({ type: 'population.toggle', populationId: POP_A });
    actor.send({ type: 'replicate.add' });
    actor.send({ type: 'replicate.choose', index: 0, profileId: P3 });
    actor.send({ type: 'knownContributor.add' });
    actor.send({ type: 'knownContributor.choose', index: 0, profileId: P4 });
    actor.send({ type: 'parameters.edit', field: 'contributors', value: '3' });
    actor.send({ type: 'run.start' });
    const failed = await waitFor(actor, (s) => s.matches('error'));
    expect(sent[0]!.body.mixture).toEqual({ replicateProfileIds: [P3], knownContributorIds: [P4], estimateDropout: false, setting: { ...SEED_SETTING, contributors: 3 } });
    expect(failed.context.error?.message).toMatch(/^FBI 2015 Caucasian: No simulated drop-out reproduced/);
  });
});
