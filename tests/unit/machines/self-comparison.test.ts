import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, transition, waitFor, type StateValue } from 'xstate';
import type { SelfComparisonJob } from '../../../core/schemas/self-comparison';
import { GENERIC_FAILURE } from '../../../machines/recordEditor.machine';
import { selfComparisonMachine, type SelfComparisonContext, type SelfComparisonRequest } from '../../../machines/selfComparison.machine';

const ORG = '5b1f7c2a-3d4e-4f5a-9b6c-7d8e9f0a1b2c';
const request: SelfComparisonRequest = { chemistryId: '6c2a8d3b-4e5f-4a6b-8c7d-9e0f1a2b3c4d', maxDifferences: 2, minEqualMarkers: 10 };
const job = (state: SelfComparisonJob['state'], more: Partial<SelfComparisonJob> = {}): SelfComparisonJob => ({
  id: '0d6f8b4a-1c2e-4f3a-8b5c-7d9e0f1a2b3c',
  organizationId: ORG,
  chemistryId: request.chemistryId,
  chemistryName: 'GlobalFiler',
  maxDifferences: 2,
  minEqualMarkers: 10,
  state,
  phase: state === 'running' ? 'comparing' : 'finished',
  blocksDone: 1,
  blocksTotal: 4,
  pairsVerified: 10,
  pairsFound: 1,
  profilesCompared: 1000,
  tooFewMarkers: 0,
  mixturesLeftOut: 0,
  duplicateCount: 1,
  nearDuplicateCount: 0,
  truncated: false,
  startedBy: 'Ada Analyst',
  startedAt: '2026-11-24T14:00:00.000Z',
  finishedAt: state === 'running' ? null : '2026-11-24T14:00:02.000Z',
  elapsedMs: state === 'running' ? null : 2000,
  message: null,
  ...more,
});

const at = (value: StateValue, context: Partial<SelfComparisonContext> = {}) => selfComparisonMachine.resolveState({ value, context: { orgId: ORG, job: null, request: null, error: null, ...context } });

/** The machine with fake calls: `load` answers each poll in turn (the last one repeats). */
function start(calls: { load?: (SelfComparisonJob | null | Error)[]; start?: () => Promise<SelfComparisonJob>; cancel?: () => Promise<SelfComparisonJob> }) {
  const sent = { load: 0, start: [] as SelfComparisonRequest[], cancel: 0 };
  const answers = calls.load ?? [null];
  const logic = selfComparisonMachine.provide({
    delays: { pollInterval: 5 },
    actors: {
      loadJob: fromPromise<SelfComparisonJob | null, { orgId: string }>(async () => {
        const answer = answers[Math.min(sent.load++, answers.length - 1)]!;
        if (answer instanceof Error) throw answer;
        return answer;
      }),
      startJob: fromPromise<SelfComparisonJob, { orgId: string; request: SelfComparisonRequest }>(async ({ input }) => (sent.start.push(input.request), (calls.start ?? (async () => job('running')))())),
      cancelJob: fromPromise<SelfComparisonJob, { orgId: string }>(async () => (sent.cancel++, (calls.cancel ?? (async () => job('running')))())),
    },
  });
  return { actor: createActor(logic, { input: { orgId: ORG } }).start(), sent };
}

describe('selfComparison machine', () => {
  it('reads the organization’s last comparison first; none → the form', async () => {
    const { actor } = start({ load: [null] });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s) => s.matches('idle'));
    expect(actor.getSnapshot().hasTag('form')).toBe(true);
  });

  it.each<[SelfComparisonJob['state'], 'running' | 'report' | 'stopped']>([
    ['running', 'running'],
    ['done', 'report'],
    ['cancelled', 'stopped'],
    ['failed', 'stopped'],
  ])('a last comparison %s opens %s', async (state, target) => {
    const { actor } = start({ load: [job(state)] });
    await waitFor(actor, (s) => s.matches(target));
    expect(actor.getSnapshot().context.job?.state).toBe(state);
  });

  it('a failed read shows the error; retry reads again', async () => {
    const { actor } = start({ load: [Object.assign(new Error('x'), { status: 500 }), null] });
    await waitFor(actor, (s) => s.matches('loadFailed'));
    expect(actor.getSnapshot().context.error).toEqual({ status: 500, message: GENERIC_FAILURE });
    actor.send({ type: 'load.retry' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('starting sends the form’s request and follows the progress until the report', async () => {
    const { actor, sent } = start({ load: [null, job('running', { pairsVerified: 500 }), job('done')] });
    await waitFor(actor, (s) => s.matches('idle'));
    actor.send({ type: 'comparison.start', request });
    expect(actor.getSnapshot().value).toBe('starting');
    await waitFor(actor, (s) => s.matches('running'));
    expect(sent.start).toEqual([request]);
    expect(actor.getSnapshot().hasTag('running')).toBe(true);
    await waitFor(actor, (s) => s.context.job?.pairsVerified === 500);
    await waitFor(actor, (s) => s.matches('report'));
    expect(actor.getSnapshot().context.job?.state).toBe('done');
  });

  it('a refused start keeps the request: try again sends it, dismiss reads the job again', async () => {
    let calls = 0;
    const { actor, sent } = start({
      load: [null, job('running')],
      start: async () => {
        if (++calls === 1) throw { status: 409, serverMessage: 'A self-comparison of these profiles is already running' };
        return job('running');
      },
    });
    await waitFor(actor, (s) => s.matches('idle'));
    actor.send({ type: 'comparison.start', request });
    await waitFor(actor, (s) => s.matches('startFailed'));
    expect(actor.getSnapshot().context.error).toEqual({ status: 409, message: 'A self-comparison of these profiles is already running' });
    expect(actor.getSnapshot().hasTag('form')).toBe(true);
    actor.send({ type: 'start.retry' });
    await waitFor(actor, (s) => s.matches('running'));
    expect(sent.start).toEqual([request, request]);
  });

  it('from a failed start, dismiss reads the job (a colleague’s run may be why) and a new request starts again', () => {
    const failed = at('startFailed', { request, error: { status: 409, message: 'busy' } });
    const [loading] = transition(selfComparisonMachine, failed, { type: 'failure.dismiss' });
    expect(loading.value).toBe('loading');
    expect(loading.context.error).toBeNull();
    const [again] = transition(selfComparisonMachine, failed, { type: 'comparison.start', request: { ...request, maxDifferences: 0 } });
    expect(again.value).toBe('starting');
    expect(again.context.request?.maxDifferences).toBe(0);
  });

  it('cancel asks the server to stop, then polls until the job says cancelled', async () => {
    const { actor, sent } = start({ load: [job('running'), job('running'), job('cancelled', { message: 'Cancelled' })], cancel: async () => job('running') });
    await waitFor(actor, (s) => s.matches('running'));
    actor.send({ type: 'comparison.cancel' });
    expect(actor.getSnapshot().matches({ running: 'cancelling' })).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    // A second click while cancelling sends nothing more.
    actor.send({ type: 'comparison.cancel' });
    await waitFor(actor, (s) => s.matches('stopped'));
    expect(sent.cancel).toBe(1);
  });

  it('a failed cancel or poll shows the error and keeps following the job', async () => {
    const { actor } = start({ load: [job('running'), new Error('lost'), job('done')], cancel: async () => Promise.reject({ status: 409, serverMessage: 'No self-comparison of these profiles is running.' }) });
    await waitFor(actor, (s) => s.matches('running'));
    actor.send({ type: 'comparison.cancel' });
    await waitFor(actor, (s) => s.context.error?.status === 409);
    await waitFor(actor, (s) => s.matches('report'));
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('a report or a stopped run offers the form again; the form is closed while running or starting', () => {
    for (const value of ['report', 'stopped'] as const) {
      const [next] = transition(selfComparisonMachine, at(value, { job: job(value === 'report' ? 'done' : 'cancelled') }), { type: 'comparison.start', request });
      expect(next.value).toBe('starting');
    }
    expect(at({ running: 'waiting' }, { job: job('running') }).can({ type: 'comparison.start', request })).toBe(false);
    expect(at('starting', { request }).can({ type: 'comparison.start', request })).toBe(false);
    expect(at('idle').can({ type: 'comparison.cancel' })).toBe(false);
    expect(at('idle').can({ type: 'start.retry' })).toBe(false);
  });
});
