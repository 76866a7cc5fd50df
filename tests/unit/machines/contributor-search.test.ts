import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ContributorSearchStart, type ContinuousLrBody, type ContributorSearchJob } from '../../../core/schemas/continuous';
import { contributorSearchBody, contributorSearchMachine, modelName, searchedModels } from '../../../machines/contributorSearch.machine';
import { continuousLrBody, initialContinuousContext } from '../../../machines/continuousRun.machine';
import { CANCELLED_JOB, DONE_JOB, RUNNING_JOB, SEARCH_JOB_ID } from '../../../stories/analyses/contributor-search-fixtures';
import { CONTINUOUS_ANALYSIS_ID, LOADED_STAIN, POPULATION_ID, STAIN_ID, SUSPECT_ID } from '../../../stories/analyses/continuous-fixtures';

const REQUEST: ContinuousLrBody = continuousLrBody({
  ...initialContinuousContext({ analysisId: CONTINUOUS_ANALYSIS_ID }),
  stainId: STAIN_ID,
  stain: LOADED_STAIN,
  replicatesChosen: [true, true],
  personOfInterestId: SUSPECT_ID,
  populationId: POPULATION_ID,
});

type Calls = { start?: (body: ContributorSearchStart) => Promise<ContributorSearchJob>; read?: () => Promise<ContributorSearchJob>; cancel?: () => Promise<ContributorSearchJob> };

/** The machine with fake calls and a 5 ms poll, recording what each call was given. */
function run(calls: Calls = {}) {
  const started: ContributorSearchStart[] = [];
  const read: string[] = [];
  const cancelled: string[] = [];
  const logic = contributorSearchMachine.provide({
    delays: { POLL: 5 },
    actors: {
      startSearch: fromPromise(async ({ input }: { input: ContributorSearchStart }) => {
        started.push(input);
        return (calls.start ?? (async () => RUNNING_JOB))(input);
      }),
      readSearch: fromPromise(async ({ input }: { input: { id: string } }) => {
        read.push(input.id);
        return (calls.read ?? (async () => DONE_JOB))();
      }),
      cancelSearch: fromPromise(async ({ input }: { input: { id: string } }) => {
        cancelled.push(input.id);
        return (calls.cancel ?? (async () => CANCELLED_JOB))();
      }),
    },
  });
  const actor = createActor(logic).start();
  return { actor, started, read, cancelled };
}

const never = () => new Promise<ContributorSearchJob>(() => {});

describe('searchedModels and the request', () => {
  it('tries the model without degradation and stutter, and each part chosen beside it (forward stutter with backward)', () => {
    expect(searchedModels({ degradation: false, backwardStutter: false, forwardStutter: false })).toEqual([{ degradation: false, backwardStutter: false, forwardStutter: false }]);
    const all = searchedModels({ degradation: true, backwardStutter: false, forwardStutter: true });
    expect(all).toHaveLength(6);
    expect(all.every((m) => !m.forwardStutter || m.backwardStutter)).toBe(true);
    expect(all.map(modelName)).toContain('With degradation, backward and forward stutter');
    expect(modelName(all[0]!)).toBe('No degradation, no stutter');
  });

  it('sends the calculator’s choices fitted, for the counts and models chosen, in a body the server accepts', () => {
    const fixed = { ...REQUEST, parameters: { mode: 'fixed' as const, hp: { mx: [1], mu: 1000, sigma: 0.1, beta: 1, xiB: 0, xiF: 0 }, hd: { mx: [1], mu: 1000, sigma: 0.1, beta: 1, xiB: 0, xiF: 0 } } };
    const body = contributorSearchBody(fixed, { from: 2, to: 4, variants: { degradation: true, backwardStutter: false, forwardStutter: false } });
    expect(body.parameters).toEqual({ mode: 'fit', starts: 4, seed: 1 });
    expect(body.contributorSearch).toEqual({ from: 2, to: 4, models: [{ degradation: false, backwardStutter: false, forwardStutter: false }, { degradation: true, backwardStutter: false, forwardStutter: false }] });
    expect(ContributorSearchStart.safeParse(body).success).toBe(true);
    expect(contributorSearchBody({ ...REQUEST, parameters: { mode: 'fit', starts: 7, seed: 3 } }, { from: 1, to: 1, variants: { degradation: false, backwardStutter: false, forwardStutter: false } }).parameters).toEqual({ mode: 'fit', starts: 7, seed: 3 });
  });
});

describe('contributorSearchMachine', () => {
  it('starts idle with 1 to 3 contributors; a range and the parts to try can be chosen, a wrong range is ignored', () => {
    const { actor } = run();
    expect(actor.getSnapshot().context).toMatchObject({ from: 1, to: 3 });
    actor.send({ type: 'range.choose', from: 2, to: 4 });
    actor.send({ type: 'range.choose', from: 3, to: 2 });
    actor.send({ type: 'range.choose', from: 1, to: 5 });
    actor.send({ type: 'variant.check', variant: 'backwardStutter', checked: true });
    expect(actor.getSnapshot().context).toMatchObject({ from: 2, to: 4, variants: { backwardStutter: true } });
  });

  it('does not start while the calculator’s choices are missing, and lists them', () => {
    const { actor, started } = run();
    actor.send({ type: 'search.start', request: null, blockers: ['Choose a population'] });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.blockers).toEqual(['Choose a population']);
    expect(started).toHaveLength(0);
  });

  it('starts, reads the job until it is done, and keeps every model with the best marked', async () => {
    const { actor, started, read } = run();
    actor.send({ type: 'search.start', request: REQUEST, blockers: [] });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    const done = await waitFor(actor, (s) => s.matches('finished'));
    expect(started[0]!.contributorSearch).toMatchObject({ from: 1, to: 3 });
    expect(read).toEqual([SEARCH_JOB_ID]);
    expect(done.context.job!.models.filter((m) => m.best)).toHaveLength(1);
    expect(done.hasTag('busy')).toBe(false);
  });

  it('reads a running job again after each poll until it ends', async () => {
    let reads = 0;
    const { actor } = run({ read: async () => (++reads < 3 ? RUNNING_JOB : DONE_JOB) });
    actor.send({ type: 'search.start', request: REQUEST, blockers: [] });
    await waitFor(actor, (s) => s.matches('finished'));
    expect(reads).toBe(3);
  });

  it('cancels a running job: the models fitted so far stay', async () => {
    const { actor, cancelled } = run({ read: never });
    actor.send({ type: 'search.start', request: REQUEST, blockers: [] });
    await waitFor(actor, (s) => s.matches('reading'));
    actor.send({ type: 'search.cancel' });
    const after = await waitFor(actor, (s) => s.matches('finished'));
    expect(cancelled).toEqual([SEARCH_JOB_ID]);
    expect(after.context.job!.state).toBe('cancelled');
    expect(after.context.job!.models.filter((m) => m.state === 'fitted')).toHaveLength(3);
  });

  it('cancel refused because the job ended meanwhile: the job is read again and shown as it ended', async () => {
    const { actor } = run({ cancel: async () => Promise.reject({ status: 409, serverMessage: 'The search is not running.' }) });
    actor.send({ type: 'search.start', request: REQUEST, blockers: [] });
    await waitFor(actor, (s) => s.matches('running'));
    actor.send({ type: 'search.cancel' });
    const after = await waitFor(actor, (s) => s.matches('finished'));
    expect(after.context.job!.state).toBe('done');
  });

  it('a refused start (another search running) shows the server’s message; starting again is allowed', async () => {
    const { actor } = run({ start: async () => Promise.reject({ status: 409, serverMessage: 'A number-of-contributors search of yours is already running: wait for it, or cancel it first.' }) });
    actor.send({ type: 'search.start', request: REQUEST, blockers: [] });
    const failed = await waitFor(actor, (s) => s.matches('failed'));
    expect(failed.context.error!.message).toMatch(/already running/);
    expect(failed.can({ type: 'search.retry' })).toBe(false);
    expect(failed.can({ type: 'search.start', request: REQUEST, blockers: [] })).toBe(true);
  });

  it('a failed read keeps the job; Try again reads it again', async () => {
    let reads = 0;
    const { actor } = run({ read: async () => (++reads === 1 ? Promise.reject(new TypeError('Failed to fetch')) : DONE_JOB) });
    actor.send({ type: 'search.start', request: REQUEST, blockers: [] });
    const failed = await waitFor(actor, (s) => s.matches('failed'));
    expect(failed.context.job!.id).toBe(SEARCH_JOB_ID);
    actor.send({ type: 'search.retry' });
    const done = await waitFor(actor, (s) => s.matches('finished'));
    expect(done.context.error).toBeNull();
  });

  it('clear goes back to idle without the job; a new start from finished drops the old one', async () => {
    const { actor } = run();
    actor.send({ type: 'search.start', request: REQUEST, blockers: [] });
    await waitFor(actor, (s) => s.matches('finished'));
    actor.send({ type: 'search.start', request: REQUEST, blockers: [] });
    expect(actor.getSnapshot().context.job).toBeNull();
    await waitFor(actor, (s) => s.matches('finished'));
    actor.send({ type: 'search.clear' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.job).toBeNull();
  });

  it('a job that ended on its own (failed in the worker) is finished with its message', async () => {
    const { actor } = run({ start: async () => ({ ...RUNNING_JOB, state: 'failed', message: 'The worker stopped.' }) });
    actor.send({ type: 'search.start', request: REQUEST, blockers: [] });
    const after = await waitFor(actor, (s) => s.matches('finished'));
    expect(after.context.job!.message).toBe('The worker stopped.');
  });
});
