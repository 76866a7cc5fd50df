import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, initialTransition, transition, waitFor, type SnapshotFrom, type StateValue } from 'xstate';
import type { AnalysisResult } from '../../../core/schemas/analyses';
import {
  analysisRunMachine,
  analyzeRequest,
  runBlockers,
  type AnalysisRunContext,
  type AnalyzeRequest,
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
    context: { analysis: SIBLINGS, profileIds: [null, null], populationIds: [], result: null, error: null, showBlockers: false, ...context },
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
    expect(fresh.context).toEqual({ analysis: SIBLINGS, profileIds: [null, null], populationIds: [], result: null, error: null, showBlockers: false });
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
