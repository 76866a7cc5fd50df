import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, transition, waitFor, type StateValue } from 'xstate';
import type { FamilialCandidate, FamilialPromoteAnswer, FamilialSearchAnswer } from '../../../core/schemas/familial-search';
import { familialSearchMachine, type FamilialPromoteInput, type FamilialSearchContext, type FamilialSearchInput, type FamilialSearchRequest } from '../../../machines/familialSearch.machine';
import { GENERIC_FAILURE } from '../../../machines/recordEditor.machine';

const PROFILE = '5b1f7c2a-3d4e-4f5a-9b6c-7d8e9f0a1b2c';
const RULE = '6c2a8d3b-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const POPULATION = '0d6f8b4a-1c2e-4f3a-8b5c-7d9e0f1a2b3c';
const request: FamilialSearchRequest = { searchRuleId: RULE, populationIds: [POPULATION], limit: 50 };
const candidate = (n: number, alreadyHit = false): FamilialCandidate => ({
  rank: n,
  profileId: `00000000-0000-4000-8000-00000000000${n}`,
  sampleName: `OFFENDER-${n}`,
  caseId: '4e1a5b6c-7d8e-4f90-a1b2-c3d4e5f6a7b8',
  caseNumber: 'FAM-1',
  sampleType: 'Convicted Offender',
  populations: [],
  smallestCombinedIndex: 1000 / n,
  reportedPopulationId: POPULATION,
  alreadyHit,
});
const answer: FamilialSearchAnswer = {
  rule: { id: RULE, name: 'Familial search (full siblings)' },
  analysis: { id: '1b8d2e3f-4a5b-4c6d-9e7f-8091a2b3c4d5', name: 'Full siblings' },
  populations: [{ id: POPULATION, name: 'FBI 2015 Caucasian', synthetic: false }],
  searchedProfiles: 3,
  limit: 50,
  candidates: [candidate(1), candidate(2), candidate(3, true)],
};
const [first, second, hit] = answer.candidates.map((c) => c.profileId) as [string, string, string];
const promoted: FamilialPromoteAnswer = { hits: [{ id: '2c9e3f4a-5b6c-4d7e-8f80-91a2b3c4d5e6', candidateId: first, sampleName: 'OFFENDER-1', caseNumber: 'FAM-1', combinedIndex: 1000, probability: '99.90% (CI 1.00e+3)', populationId: POPULATION }], skipped: [] };

const at = (value: StateValue, context: Partial<FamilialSearchContext> = {}) =>
  familialSearchMachine.resolveState({ value, context: { profileId: PROFILE, request: null, answer: null, selected: [], promoted: null, error: null, failedCall: null, ...context } });

function start(calls: { search?: (i: FamilialSearchInput, signal: AbortSignal) => Promise<FamilialSearchAnswer>; promote?: (i: FamilialPromoteInput) => Promise<FamilialPromoteAnswer> }) {
  const sent = { search: [] as FamilialSearchInput[], promote: [] as FamilialPromoteInput[] };
  const logic = familialSearchMachine.provide({
    actors: {
      search: fromPromise(async ({ input, signal }: { input: FamilialSearchInput; signal: AbortSignal }) => (sent.search.push(input), (calls.search ?? (async () => answer))(input, signal))),
      promote: fromPromise(async ({ input }: { input: FamilialPromoteInput }) => (sent.promote.push(input), (calls.promote ?? (async () => promoted))(input))),
    },
  });
  return { actor: createActor(logic, { input: { profileId: PROFILE } }).start(), sent };
}

describe('familialSearch machine', () => {
  it('starts editing for its profile with nothing sent, and runs the search the form holds', () => {
    const editing = at('editing');
    expect(editing.hasTag('form')).toBe(true);
    expect(editing.can({ type: 'promote' })).toBe(false);
    expect(editing.can({ type: 'retry' })).toBe(false);
    const [running] = transition(familialSearchMachine, editing, { type: 'search.run', request });
    expect(running.value).toBe('running');
    expect(running.hasTag('busy')).toBe(true);
    expect(running.context.request).toEqual(request);
  });

  it('shows the ranked list for the profile searched', async () => {
    const { actor, sent } = start({});
    actor.send({ type: 'search.run', request });
    await waitFor(actor, (s) => s.matches('results'));
    expect(actor.getSnapshot().context.answer).toEqual(answer);
    expect(sent.search).toEqual([{ profileId: PROFILE, request }]);
  });

  it('cancels a running search: back to the form, the call aborted and its late answer ignored', async () => {
    let aborted = false;
    let answerLate: (a: FamilialSearchAnswer) => void = () => undefined;
    const { actor } = start({
      search: (_, signal) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => (aborted = true));
          answerLate = resolve;
        }),
    });
    actor.send({ type: 'search.run', request });
    expect(actor.getSnapshot().value).toBe('running');
    actor.send({ type: 'search.cancel' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(aborted).toBe(true);
    answerLate(answer);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(actor.getSnapshot()).toMatchObject({ value: 'editing', context: { answer: null } });
  });

  it('takes no second search, no promotion and no ticks while one runs', () => {
    const running = at('running', { request });
    expect(running.can({ type: 'search.run', request })).toBe(false);
    expect(running.can({ type: 'promote' })).toBe(false);
    expect(running.can({ type: 'search.clear' })).toBe(false);
    expect(at('promoting', { request, answer, selected: [first] }).can({ type: 'search.cancel' })).toBe(false);
  });

  it('ticks and unticks listed candidates, never one that is already a hit or not listed', () => {
    let s = at('results', { request, answer });
    [s] = transition(familialSearchMachine, s, { type: 'candidate.toggle', candidateId: first });
    [s] = transition(familialSearchMachine, s, { type: 'candidate.toggle', candidateId: second });
    expect(s.context.selected).toEqual([first, second]);
    [s] = transition(familialSearchMachine, s, { type: 'candidate.toggle', candidateId: first });
    expect(s.context.selected).toEqual([second]);
    expect(s.can({ type: 'candidate.toggle', candidateId: hit })).toBe(false);
    expect(s.can({ type: 'candidate.toggle', candidateId: 'not-listed' })).toBe(false);
    [s] = transition(familialSearchMachine, s, { type: 'candidates.clear' });
    expect(s.context.selected).toEqual([]);
  });

  it('ticks at most 100 candidates (what one promotion takes)', () => {
    const many = { ...answer, candidates: Array.from({ length: 101 }, (_, i) => ({ ...candidate(1), profileId: `c${i}` })) };
    const full = at('results', { request, answer: many, selected: many.candidates.slice(0, 100).map((c) => c.profileId) });
    expect(full.can({ type: 'candidate.toggle', candidateId: 'c100' })).toBe(false);
    expect(full.can({ type: 'candidate.toggle', candidateId: 'c0' })).toBe(true);
  });

  it('promotes only with a candidate ticked, sending the answer’s rule and populations; the hits created are shown and marked in the list', async () => {
    expect(at('results', { request, answer }).can({ type: 'promote' })).toBe(false);
    const { actor, sent } = start({});
    actor.send({ type: 'search.run', request: { ...request, populationIds: ['ignored-by-promote'] } });
    await waitFor(actor, (s) => s.matches('results'));
    actor.send({ type: 'candidate.toggle', candidateId: first });
    actor.send({ type: 'promote' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s) => s.matches('promoted'));
    expect(sent.promote).toEqual([{ profileId: PROFILE, body: { searchRuleId: RULE, populationIds: [POPULATION], candidateIds: [first] } }]);
    const { context } = actor.getSnapshot();
    expect(context.promoted).toEqual(promoted);
    expect(context.selected).toEqual([]);
    expect(context.answer!.candidates.find((c) => c.profileId === first)!.alreadyHit).toBe(true);
    actor.send({ type: 'promoted.back' });
    expect(actor.getSnapshot()).toMatchObject({ value: 'results', context: { promoted: null } });
    expect(actor.getSnapshot().can({ type: 'candidate.toggle', candidateId: first })).toBe(false);
  });

  it('on a failed search shows the server message; retry sends the same search', async () => {
    let attempt = 0;
    const { actor, sent } = start({
      search: async () => {
        if (++attempt === 1) throw { status: 400, serverMessage: 'Search rule X runs on approval' };
        return answer;
      },
    });
    actor.send({ type: 'search.run', request });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context).toMatchObject({ answer: null, failedCall: 'search', error: { status: 400, message: 'Search rule X runs on approval' } });
    actor.send({ type: 'retry' });
    await waitFor(actor, (s) => s.matches('results'));
    expect(sent.search).toHaveLength(2);
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('on a failed promotion keeps the list and the ticks; retry sends the same promotion, dismiss returns to the list', async () => {
    let attempt = 0;
    const { actor, sent } = start({
      promote: async () => {
        if (++attempt <= 2) throw { status: 503, serverMessage: 'The database search is not running' };
        return promoted;
      },
    });
    actor.send({ type: 'search.run', request });
    await waitFor(actor, (s) => s.matches('results'));
    actor.send({ type: 'candidate.toggle', candidateId: first });
    actor.send({ type: 'promote' });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context).toMatchObject({ answer, selected: [first], failedCall: 'promote', error: { status: 503 } });
    actor.send({ type: 'retry' });
    await waitFor(actor, (s) => s.matches('failed') && sent.promote.length === 2);
    actor.send({ type: 'failure.dismiss' });
    expect(actor.getSnapshot()).toMatchObject({ value: 'results', context: { selected: [first], error: null } });
    actor.send({ type: 'promote' });
    await waitFor(actor, (s) => s.matches('promoted'));
    expect(sent.promote.map((p) => p.body.candidateIds)).toEqual([[first], [first], [first]]);
  });

  it('dismissing a failed search, or clearing a list, returns to the plain form', () => {
    const [fromFailure] = transition(familialSearchMachine, at('failed', { request, failedCall: 'search', error: { status: 0, message: GENERIC_FAILURE } }), { type: 'failure.dismiss' });
    expect(fromFailure).toMatchObject({ value: 'editing', context: { error: null, answer: null } });
    for (const value of ['results', 'promoted', 'failed'] as const) {
      const [editing] = transition(familialSearchMachine, at(value, { request, answer, selected: [first], promoted, failedCall: 'promote', error: { status: 0, message: GENERIC_FAILURE } }), { type: 'search.clear' });
      expect(editing.value, value).toBe('editing');
      expect(editing.context, value).toMatchObject({ answer: null, selected: [], promoted: null, error: null });
    }
  });

  it('searches again from the list, the hits shown or a failure', () => {
    for (const value of ['results', 'promoted', 'failed'] as const) {
      const [running] = transition(familialSearchMachine, at(value, { request, answer, failedCall: 'search' }), { type: 'search.run', request: { ...request, limit: 10 } });
      expect(running.value, value).toBe('running');
      expect(running.context.request!.limit).toBe(10);
    }
  });

  it('fails with the generic message when no call is provided', async () => {
    const actor = createActor(familialSearchMachine, { input: { profileId: PROFILE } }).start();
    actor.send({ type: 'search.run', request });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toEqual({ status: 0, message: GENERIC_FAILURE });
  });
});
