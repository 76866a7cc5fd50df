import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, transition, waitFor, type SnapshotFrom, type StateValue } from 'xstate';
import { ContinuousLrBody, type ContinuousLrResult } from '../../../core/schemas/continuous';
import {
  continuousBlockers,
  continuousDraft,
  continuousLrBody,
  continuousRunMachine,
  initialContinuousContext,
  readContinuousDraft,
  withFixed,
  withSwitch,
  type ContinuousDraft,
  type ContinuousPrefill,
  type ContinuousRunContext,
  type LoadedStain,
} from '../../../machines/continuousRun.machine';
import { GENERIC_FAILURE } from '../../../machines/recordEditor.machine';
import { CONTINUOUS_ANALYSIS_ID, CONTINUOUS_RESULT, LOADED_STAIN, POPULATION_ID, STAIN_ID, STAIN_WITHOUT_HEIGHTS, SUSPECT_ID, VICTIM_ID } from '../../../stories/analyses/continuous-fixtures';

type Snapshot = SnapshotFrom<typeof continuousRunMachine>;
const OTHER = '8293a4b5-c6d7-4e8f-90a1-b2c3d4e5f6a7';

const ready: Partial<ContinuousRunContext> = { stainId: STAIN_ID, stain: LOADED_STAIN, replicatesChosen: [true, true], personOfInterestId: SUSPECT_ID, populationId: POPULATION_ID };
const context = (c: Partial<ContinuousRunContext> = {}): ContinuousRunContext => ({ ...initialContinuousContext({ analysisId: CONTINUOUS_ANALYSIS_ID }), ...c });

/** A snapshot in `run` (and the stain region in `stain`) with `c`, without running any actor. */
function at(run: StateValue, c: Partial<ContinuousRunContext> = {}, stain = 'ready'): Snapshot {
  return continuousRunMachine.resolveState({ value: { stain, run } as StateValue, context: context(c) });
}

/** Runs the machine with fake calls, recording what each was asked and whether the weighing was aborted. */
function start(weigh: (body: ContinuousLrBody) => Promise<ContinuousLrResult> = async () => CONTINUOUS_RESULT, load: (id: string) => Promise<LoadedStain> = async () => LOADED_STAIN, prefill?: ContinuousPrefill) {
  const sent: ContinuousLrBody[] = [];
  const loaded: string[] = [];
  const signals: AbortSignal[] = [];
  const logic = continuousRunMachine.provide({
    actors: {
      loadStain: fromPromise(async ({ input }: { input: { profileId: string } }) => {
        loaded.push(input.profileId);
        return load(input.profileId);
      }),
      weigh: fromPromise(async ({ input, signal }: { input: ContinuousLrBody; signal: AbortSignal }) => {
        sent.push(input);
        signals.push(signal);
        return weigh(input);
      }),
    },
  });
  const actor = createActor(logic, { input: { analysisId: CONTINUOUS_ANALYSIS_ID, ...(prefill ? { prefill } : {}) } }).start();
  return { actor, sent, loaded, signals };
}

async function choose(actor: ReturnType<typeof start>['actor']) {
  actor.send({ type: 'stain.choose', profileId: STAIN_ID });
  await waitFor(actor, (s) => s.matches({ stain: 'ready' }));
  actor.send({ type: 'personOfInterest.choose', profileId: SUSPECT_ID });
  actor.send({ type: 'population.choose', populationId: POPULATION_ID });
}

describe('a calculator opened from a continuous hit', () => {
  it('starts with the hit\'s stain read, its candidate as person of interest and its population chosen: Run weighs them at once', async () => {
    const { actor, loaded, sent } = start(undefined, undefined, { stainId: STAIN_ID, personOfInterestId: SUSPECT_ID, populationId: POPULATION_ID });
    await waitFor(actor, (s) => s.matches({ stain: 'ready' }));
    expect(loaded).toEqual([STAIN_ID]);
    expect(continuousBlockers(actor.getSnapshot().context)).toEqual([]);
    actor.send({ type: 'run.start' });
    await waitFor(actor, (s) => s.matches({ run: 'result' }));
    expect(sent[0]).toMatchObject({ personOfInterest: { profileId: SUSPECT_ID }, populationId: POPULATION_ID });
  });

  it('reads nothing when opened without a stain, and a prefilled stain can still be put back', async () => {
    const { actor, loaded } = start(undefined, undefined, { personOfInterestId: SUSPECT_ID });
    expect(actor.getSnapshot().matches({ stain: 'none' })).toBe(true);
    expect(loaded).toEqual([]);
    const prefilled = start(undefined, undefined, { stainId: STAIN_ID });
    await waitFor(prefilled.actor, (s) => s.matches({ stain: 'ready' }));
    prefilled.actor.send({ type: 'stain.choose', profileId: null });
    expect(prefilled.actor.getSnapshot().matches({ stain: 'none' })).toBe(true);
    expect(prefilled.loaded).toEqual([STAIN_ID]);
  });
});

describe('continuousBlockers', () => {
  it('names every missing choice', () => {
    expect(continuousBlockers(context())).toEqual(['Choose a profile for Evidence', 'Choose a profile for Person of interest', 'Choose a population']);
    expect(continuousBlockers(context(ready))).toEqual([]);
  });

  it('says while the stain is read, why it could not be, and when it has no heights', () => {
    expect(continuousBlockers(context({ ...ready, stain: null }))).toEqual(['The evidence is still being read']);
    expect(continuousBlockers(context({ ...ready, stain: null, stainError: { status: 404, message: 'Profile not found' } }))).toEqual(['The evidence could not be read: Profile not found']);
    expect(continuousBlockers(context({ ...ready, stain: STAIN_WITHOUT_HEIGHTS, replicatesChosen: [false] }))).toEqual([
      "STAIN-08 has no peak heights: the continuous model weighs them (import the stain's file with its heights)",
    ]);
    expect(continuousBlockers(context({ ...ready, replicatesChosen: [false, false] }))).toEqual(['Choose at least one replicate of the evidence with peak heights']);
  });

  it('refuses an unchosen listed person, one profile twice, and too few contributors for the known ones', () => {
    expect(continuousBlockers(context({ ...ready, knownContributors: [null], knownNonContributors: [null] }))).toEqual([
      'Choose a profile for Known contributor 1, or remove it',
      'Choose a profile for Known non-contributor 1, or remove it',
    ]);
    expect(continuousBlockers(context({ ...ready, knownNonContributors: [SUSPECT_ID] }))).toEqual(['Choose a different profile for the evidence and each person']);
    expect(continuousBlockers(context({ ...ready, knownContributors: [VICTIM_ID, OTHER] }))).toEqual(['Number of contributors: At least 3: the person of interest and 2 known contributors']);
  });
});

describe('readContinuousDraft', () => {
  it('reads a fit with its starts and seed, and the model switches', () => {
    const draft = withSwitch({ ...continuousDraft(), dropIn: '0,1' }, 'forwardStutter', true);
    expect(readContinuousDraft(draft, 0).settings).toEqual({
      contributors: 2,
      dropIn: 0.1,
      dropInLambda: 0.01,
      theta: 0.01,
      analyticalThreshold: null,
      model: { degradation: false, backwardStutter: true, forwardStutter: true },
      parameters: { mode: 'fit', starts: 4, seed: 1 },
      personOfInterestTypedUnderHd: true,
      normalizeFrequencies: false,
    });
    // Backward stutter off takes forward stutter with it (EuroForMix: forward needs backward).
    expect(withSwitch(draft, 'backwardStutter', false)).toMatchObject({ backwardStutter: false, forwardStutter: false });
  });

  it('reads fixed parameters per hypothesis; β and ξ only with their model part on', () => {
    let draft: ContinuousDraft = { ...continuousDraft(), mode: 'fixed', degradation: true };
    draft = withFixed(withFixed(draft, 'hp', 'mx', '0.7', 0), 'hp', 'mx', '0.3', 1);
    draft = withFixed(draft, 'hd', 'beta', '0.8');
    draft = withFixed(draft, 'hd', 'xiB', '0.5');
    expect(readContinuousDraft(draft, 0).settings?.parameters).toEqual({
      mode: 'fixed',
      hp: { mx: [0.7, 0.3], mu: 1000, sigma: 0.15, beta: 1, xiB: 0, xiF: 0 },
      hd: { mx: [0.5, 0.5], mu: 1000, sigma: 0.15, beta: 0.8, xiB: 0, xiF: 0 },
    });
  });

  it('gives each wrong field its message', () => {
    let draft: ContinuousDraft = { ...continuousDraft(), mode: 'fixed', theta: '1', dropInLambda: '', threshold: 'typed', analyticalThreshold: '-5', contributors: '5' };
    draft = withFixed(withFixed(draft, 'hp', 'mx', '0.9', 0), 'hd', 'sigma', 'x');
    expect(readContinuousDraft(draft, 0).errors).toEqual({
      contributors: 'A whole number from 1 to 4',
      dropInLambda: 'Required',
      theta: 'A number from 0 to below 1, e.g. 0.05',
      analyticalThreshold: 'A number above 0',
      'hp.mx': 'The mixture proportions add up to 1',
      'hd.sigma': 'A number above 0',
    });
    expect(continuousBlockers(context({ ...ready, draft }))).toContain('Hp: Mixture proportion: The mixture proportions add up to 1');
    expect(continuousBlockers(context({ ...ready, draft }))).toContain('Hd: Coefficient of variation (σ): A number above 0');
  });
});

describe('continuousLrBody', () => {
  it('writes out the chosen replicates with heights, the persons by id, the kit\'s thresholds per dye, and the sizes only with degradation', () => {
    const body = continuousLrBody(context({ ...ready, replicatesChosen: [true, false], knownContributors: [VICTIM_ID], knownNonContributors: [OTHER] }));
    expect(body.replicates).toEqual([
      {
        name: 'STAIN-07 run 1',
        markers: [
          { marker: 'D3S1358', peaks: [{ allele: '14', height: 420, size: 107.6 }, { allele: '15', height: 1510, size: 111.6 }, { allele: '16', height: 1450, size: 115.6 }, { allele: '17', height: 390, size: 119.6 }] },
          { marker: 'TH01', peaks: [{ allele: '6', height: 1700, size: 156.4 }, { allele: '9.3', height: 1640, size: 170.1 }, { allele: '7', height: 45, size: 160.4 }] },
        ],
      },
    ]);
    expect(body).toMatchObject({
      personOfInterest: { profileId: SUSPECT_ID },
      knownContributors: [{ profileId: VICTIM_ID }],
      knownNonContributors: [{ profileId: OTHER }],
      populationId: POPULATION_ID,
      analyticalThreshold: 50,
      markerThresholds: [{ marker: 'TH01', threshold: 60 }],
      fragmentSizes: [],
      deconvolution: true,
      parameters: { mode: 'fit', starts: 4, seed: 1 },
    });
    const degraded = continuousLrBody(context({ ...ready, draft: { ...continuousDraft(), degradation: true } }));
    expect(degraded.fragmentSizes.map((f) => [f.marker, f.longest, f.alleles.length])).toEqual([['D3S1358', 123.6, 5], ['TH01', 170.1, 3]]);
  });

  it('builds a body the route\'s own schema accepts unchanged, at fixed parameters and for a fit with every part of the model on', () => {
    const fixed = continuousLrBody(context({ ...ready, knownNonContributors: [OTHER], draft: { ...continuousDraft(), mode: 'fixed', degradation: true, backwardStutter: true, forwardStutter: true } }));
    expect(ContinuousLrBody.parse(fixed)).toEqual(fixed);
    const fit = continuousLrBody(context(ready));
    expect(ContinuousLrBody.parse(fit)).toEqual(fit);
  });

  it('sends a typed threshold for every marker instead of the kit\'s', () => {
    const body = continuousLrBody(context({ ...ready, draft: { ...continuousDraft(), threshold: 'typed', analyticalThreshold: '75' } }));
    expect([body.analyticalThreshold, body.markerThresholds]).toEqual([75, []]);
  });
});

describe('continuousRunMachine transitions', () => {
  it('keeps the user editing with the reasons when Run is pressed too early', () => {
    const [next] = transition(continuousRunMachine, at('editing', {}, 'none'), { type: 'run.start' });
    expect(next.value).toEqual({ stain: 'none', run: 'editing' });
    expect(next.context.showBlockers).toBe(true);
  });

  it('drops a result when a choice changes, and ignores choices while weighing', () => {
    const [edited] = transition(continuousRunMachine, at('result', { ...ready, result: CONTINUOUS_RESULT }), { type: 'parameters.edit', field: 'theta', value: '0.02' });
    expect(edited.value).toEqual({ stain: 'ready', run: 'editing' });
    expect(edited.context.result).toBeNull();
    expect(edited.context.draft.theta).toBe('0.02');
    const [running] = transition(continuousRunMachine, at('running', ready), { type: 'stain.choose', profileId: OTHER });
    expect(running.context.stainId).toBe(STAIN_ID);
    expect(running.matches({ run: 'running', stain: 'ready' })).toBe(true);
  });

  it('guards the lists: at most 3 known contributors, an index that exists, a replicate that exists', () => {
    const full = at('editing', { ...ready, knownContributors: [VICTIM_ID, OTHER, null] });
    expect(full.can({ type: 'person.add', list: 'knownContributors' })).toBe(false);
    expect(full.can({ type: 'person.add', list: 'knownNonContributors' })).toBe(true);
    expect(full.can({ type: 'person.remove', list: 'knownContributors', index: 3 })).toBe(false);
    expect(full.can({ type: 'replicate.toggle', index: 2 })).toBe(false);
    const [toggled] = transition(continuousRunMachine, full, { type: 'replicate.toggle', index: 1 });
    expect(toggled.context.replicatesChosen).toEqual([true, false]);
    const [removed] = transition(continuousRunMachine, full, { type: 'person.remove', list: 'knownContributors', index: 0 });
    expect(removed.context.knownContributors).toEqual([OTHER, null]);
    const [chosen] = transition(continuousRunMachine, removed, { type: 'person.choose', list: 'knownContributors', index: 1, profileId: VICTIM_ID });
    expect(chosen.context.knownContributors).toEqual([OTHER, VICTIM_ID]);
    expect(full.can({ type: 'parameters.editFixed', hypothesis: 'hp', field: 'mx', index: 2, value: '0.1' })).toBe(false);
  });

  it('resizes the mixture proportions with the number of contributors, and resets the parameters', () => {
    const [three] = transition(continuousRunMachine, at('editing', ready), { type: 'parameters.edit', field: 'contributors', value: '3' });
    expect(three.context.draft.fixed.hd.mx).toEqual(['0.333333', '0.333333', '0.333333']);
    const [mode] = transition(continuousRunMachine, three, { type: 'parameters.chooseMode', mode: 'fixed' });
    const [threshold] = transition(continuousRunMachine, mode, { type: 'parameters.chooseThreshold', threshold: 'typed' });
    expect(threshold.context.draft).toMatchObject({ mode: 'fixed', threshold: 'typed' });
    const [reset] = transition(continuousRunMachine, threshold, { type: 'parameters.reset' });
    expect(reset.context.draft).toEqual(continuousDraft());
  });

  it('retries and dismisses a failure, keeping the choices', () => {
    const failed = at('error', { ...ready, error: { status: 400, message: 'D3S1358: degradation needs the fragment size of allele 14.' } });
    const [dismissed] = transition(continuousRunMachine, failed, { type: 'failure.dismiss' });
    expect(dismissed.matches({ run: 'editing' })).toBe(true);
    expect(dismissed.context.error).toBeNull();
    const [retried] = transition(continuousRunMachine, failed, { type: 'run.retry' });
    expect(retried.matches({ run: 'running' })).toBe(true);
  });
});

describe('continuousRunMachine with its calls', () => {
  it('reads the stain when chosen, chooses its replicates with heights, weighs and shows the result', async () => {
    const { actor, sent, loaded } = start();
    await choose(actor);
    expect(loaded).toEqual([STAIN_ID]);
    expect(actor.getSnapshot().context.replicatesChosen).toEqual([true, true]);
    actor.send({ type: 'run.start' });
    const done = await waitFor(actor, (s) => s.matches({ run: 'result' }));
    expect(done.context.result?.lr).toBe(957_700);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.replicates).toHaveLength(2);
  });

  it('shows why the stain could not be read, and reads it again on retry', async () => {
    let fail = true;
    const { actor, loaded } = start(undefined, async () => {
      if (fail) throw Object.assign(new Error('404'), { status: 404, serverMessage: 'Profile not found' });
      return LOADED_STAIN;
    });
    actor.send({ type: 'stain.choose', profileId: STAIN_ID });
    const failed = await waitFor(actor, (s) => s.matches({ stain: 'failed' }));
    expect(failed.context.stainError).toEqual({ status: 404, message: 'Profile not found' });
    fail = false;
    actor.send({ type: 'stain.retry' });
    await waitFor(actor, (s) => s.matches({ stain: 'ready' }));
    expect(loaded).toEqual([STAIN_ID, STAIN_ID]);
    actor.send({ type: 'stain.choose', profileId: null });
    expect(actor.getSnapshot().matches({ stain: 'none' })).toBe(true);
  });

  it('shows a refusal with its message, and aborts the request on Cancel', async () => {
    const refused = start(async () => {
      throw Object.assign(new Error('400'), { status: 400, serverMessage: 'Too many joint genotypes at D3S1358 for 4 unknowns' });
    });
    await choose(refused.actor);
    refused.actor.send({ type: 'run.start' });
    const failed = await waitFor(refused.actor, (s) => s.matches({ run: 'error' }));
    expect(failed.context.error).toEqual({ status: 400, message: 'Too many joint genotypes at D3S1358 for 4 unknowns' });

    const slow = start(() => new Promise(() => {}));
    await choose(slow.actor);
    slow.actor.send({ type: 'run.start' });
    expect(slow.actor.getSnapshot().hasTag('busy')).toBe(true);
    slow.actor.send({ type: 'run.cancel' });
    expect(slow.actor.getSnapshot().matches({ run: 'editing' })).toBe(true);
    expect(slow.signals[0]!.aborted).toBe(true);
  });

  it('says a failure without a server message generically', async () => {
    const { actor } = start(async () => {
      throw new Error('network');
    });
    await choose(actor);
    actor.send({ type: 'run.start' });
    const failed = await waitFor(actor, (s) => s.matches({ run: 'error' }));
    expect(failed.context.error?.message).toBe(GENERIC_FAILURE);
  });

  it('uses a searched model: its contributor count and switches, fitted; the old result goes; a count below the known contributors is refused', () => {
    const result = at('result', { ...ready, knownContributors: [OTHER], result: CONTINUOUS_RESULT, draft: { ...continuousDraft(), mode: 'fixed' } });
    const used = transition(continuousRunMachine, result, { type: 'model.use', contributors: 3, model: { degradation: true, backwardStutter: true, forwardStutter: false } })[0];
    expect(used.matches({ run: 'editing' })).toBe(true);
    expect(used.context.result).toBeNull();
    expect(used.context.draft).toMatchObject({ contributors: '3', degradation: true, backwardStutter: true, forwardStutter: false, mode: 'fit' });
    expect(used.context.draft.fixed.hp.mx).toHaveLength(3);
    expect(result.can({ type: 'model.use', contributors: 1, model: { degradation: false, backwardStutter: false, forwardStutter: false } })).toBe(false);
    expect(at('running', ready).can({ type: 'model.use', contributors: 2, model: { degradation: false, backwardStutter: false, forwardStutter: false } })).toBe(false);
  });
});
