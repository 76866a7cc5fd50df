import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, transition, waitFor, type StateValue } from 'xstate';
import type { KeyboardSearchAnswer } from '../../../core/schemas/keyboard-search';
import { keyboardSearchMachine, type KeyboardSearchContext, type KeyboardSearchRequest } from '../../../machines/keyboardSearch.machine';
import { GENERIC_FAILURE } from '../../../machines/recordEditor.machine';

const request: KeyboardSearchRequest = {
  organizationId: '5b1f7c2a-3d4e-4f5a-9b6c-7d8e9f0a1b2c',
  chemistryId: '6c2a8d3b-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  markerValues: [{ markerId: '0d6f8b4a-1c2e-4f3a-8b5c-7d9e0f1a2b3c', alleles: ['15', '16'] }],
  populationIds: [],
  stringency: 'moderate',
  minMarkers: 1,
  maxMismatches: 0,
};
const answer: KeyboardSearchAnswer = { candidates: [], truncated: false, candidateCount: 0, notShown: 0, candidateLimit: 200, scanLimit: 256, searchedProfiles: 0, chance: [], queuePosition: 0 };

const at = (value: StateValue, context: Partial<KeyboardSearchContext> = {}) =>
  keyboardSearchMachine.resolveState({ value, context: { request: null, answer: null, error: null, ...context } });

function start(search: (r: KeyboardSearchRequest) => Promise<KeyboardSearchAnswer>) {
  const sent: KeyboardSearchRequest[] = [];
  const logic = keyboardSearchMachine.provide({
    actors: { search: fromPromise(async ({ input }: { input: KeyboardSearchRequest }) => (sent.push(input), search(input))) },
  });
  return { actor: createActor(logic).start(), sent };
}

describe('keyboardSearch machine', () => {
  it('starts editing with nothing sent, and searches what the form holds', () => {
    const [searching] = transition(keyboardSearchMachine, at('editing'), { type: 'search', request });
    expect(searching.value).toBe('searching');
    expect(searching.hasTag('busy')).toBe(true);
    expect(searching.context.request).toEqual(request);
    expect(at('editing').can({ type: 'retry' })).toBe(false);
  });

  it('shows the answer, and searches again from the results', async () => {
    const { actor, sent } = start(async () => answer);
    actor.send({ type: 'search', request });
    await waitFor(actor, (s) => s.matches('results'));
    expect(actor.getSnapshot().context.answer).toEqual(answer);
    const narrower = { ...request, stringency: 'high' as const };
    actor.send({ type: 'search', request: narrower });
    await waitFor(actor, (s) => s.matches('results') && sent.length === 2);
    expect(sent).toEqual([request, narrower]);
  });

  it('takes no second search while one runs', () => {
    expect(at('searching', { request }).can({ type: 'search', request })).toBe(false);
    expect(at('searching', { request }).can({ type: 'clear' })).toBe(false);
  });

  it('on failure shows the server message and drops the old answer; retry sends the same search', async () => {
    let attempt = 0;
    const { actor, sent } = start(async () => {
      if (++attempt === 2) throw { status: 400, serverMessage: 'Population X does not hold autosomal frequencies' };
      return answer;
    });
    actor.send({ type: 'search', request });
    await waitFor(actor, (s) => s.matches('results'));
    actor.send({ type: 'search', request });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context).toMatchObject({ answer: null, error: { status: 400, message: 'Population X does not hold autosomal frequencies' } });
    actor.send({ type: 'retry' });
    await waitFor(actor, (s) => s.matches('results'));
    expect(sent).toEqual([request, request, request]);
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('clears results or a failure back to the plain form', () => {
    for (const value of ['results', 'failed'] as const) {
      const [editing] = transition(keyboardSearchMachine, at(value, { request, answer, error: { status: 0, message: GENERIC_FAILURE } }), { type: 'clear' });
      expect(editing.value, value).toBe('editing');
      expect(editing.context).toMatchObject({ answer: null, error: null });
    }
  });

  it('fails with the generic message when no search call is provided', async () => {
    const actor = createActor(keyboardSearchMachine).start();
    actor.send({ type: 'search', request });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toEqual({ status: 0, message: GENERIC_FAILURE });
  });
});
