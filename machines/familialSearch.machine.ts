import { assign, fromPromise, setup } from 'xstate';
import type { FamilialPromoteAnswer, FamilialPromoteBody, FamilialSearchAnswer } from '../core/schemas/familial-search';
import { FAMILIAL_MAX_PROMOTE } from '../core/schemas/familial-search';
import { toEditorError, type EditorError } from './recordEditor.machine';

/**
 * A familial search on request (issue 12) for one approved profile: the user chooses the rule, the
 * populations and how many candidates, runs the search (and may cancel it), reads the ranked list,
 * ticks candidates and promotes them to pending hits, then reads the hits created (and what was
 * skipped, with why). Pure: the two calls are injected actors.
 */

/** One search as sent: the on-request rule, the populations, how many candidates. */
export interface FamilialSearchRequest {
  searchRuleId: string;
  populationIds: string[];
  limit: number;
}

/** What the search actor receives: the profile searched and the request. */
export interface FamilialSearchInput {
  profileId: string;
  request: FamilialSearchRequest;
}

/** What the promote actor receives: the profile, the answer's rule and populations (not the form's) and the candidates ticked. */
export interface FamilialPromoteInput {
  profileId: string;
  body: FamilialPromoteBody;
}

export interface FamilialSearchContext {
  profileId: string;
  /** The last search sent, kept so a failed one can be sent again. */
  request: FamilialSearchRequest | null;
  answer: FamilialSearchAnswer | null;
  /** Candidate profile ids ticked for promotion, in the order ticked. */
  selected: string[];
  promoted: FamilialPromoteAnswer | null;
  error: EditorError | null;
  /** Which call failed: retry sends it again. */
  failedCall: 'search' | 'promote' | null;
}

export type FamilialSearchEvent =
  | { type: 'search.run'; request: FamilialSearchRequest }
  | { type: 'search.cancel' }
  /** Drops the list (or the failure, or the hits shown), back to the plain form. */
  | { type: 'search.clear' }
  | { type: 'candidate.toggle'; candidateId: string }
  | { type: 'candidates.clear' }
  | { type: 'promote' }
  /** From the hits created back to the list, to promote more. */
  | { type: 'promoted.back' }
  | { type: 'retry' }
  | { type: 'failure.dismiss' };

export type FamilialSearchTag = 'busy' | 'form';

/** A candidate may be ticked when it is listed and no hit names it with the profile yet. */
const selectable = (context: FamilialSearchContext, candidateId: string) => {
  const candidate = context.answer?.candidates.find((c) => c.profileId === candidateId);
  return candidate !== undefined && !candidate.alreadyHit;
};

export const familialSearchMachine = setup({
  types: {
    context: {} as FamilialSearchContext,
    events: {} as FamilialSearchEvent,
    input: {} as { profileId: string },
    tags: {} as FamilialSearchTag,
  },
  actors: {
    search: fromPromise<FamilialSearchAnswer, FamilialSearchInput>(async () => {
      throw new Error('familialSearchMachine: provide the "search" actor (the familial search panel)');
    }),
    promote: fromPromise<FamilialPromoteAnswer, FamilialPromoteInput>(async () => {
      throw new Error('familialSearchMachine: provide the "promote" actor (the familial search panel)');
    }),
  },
  guards: {
    canToggle: ({ context, event }) => {
      if (event.type !== 'candidate.toggle') return false;
      if (context.selected.includes(event.candidateId)) return true;
      return selectable(context, event.candidateId) && context.selected.length < FAMILIAL_MAX_PROMOTE;
    },
    hasSelection: ({ context }) => context.selected.length > 0,
    searchFailed: ({ context }) => context.failedCall === 'search',
    promoteFailed: ({ context }) => context.failedCall === 'promote',
  },
  actions: {
    send: assign(({ event }) => (event.type === 'search.run' ? { request: event.request, error: null, failedCall: null } : {})),
    clear: assign({ answer: null, selected: [], promoted: null, error: null, failedCall: null }),
    toggle: assign({
      selected: ({ context, event }) => {
        if (event.type !== 'candidate.toggle') return context.selected;
        return context.selected.includes(event.candidateId) ? context.selected.filter((id) => id !== event.candidateId) : [...context.selected, event.candidateId];
      },
    }),
  },
}).createMachine({
  id: 'familialSearch',
  context: ({ input }) => ({ profileId: input.profileId, request: null, answer: null, selected: [], promoted: null, error: null, failedCall: null }),
  initial: 'editing',
  states: {
    editing: {
      tags: ['form'],
      on: { 'search.run': { target: 'running', actions: 'send' } },
    },
    running: {
      tags: ['busy'],
      invoke: {
        src: 'search',
        input: ({ context }) => ({ profileId: context.profileId, request: context.request! }),
        onDone: { target: 'results', actions: assign({ answer: ({ event }) => event.output, selected: [], promoted: null }) },
        // The previous list is dropped: it no longer matches what the form shows.
        onError: { target: 'failed', actions: assign({ answer: null, selected: [], error: ({ event }) => toEditorError(event.error), failedCall: 'search' }) },
      },
      // Leaving the state stops the call; its answer, if it comes, is ignored.
      on: { 'search.cancel': { target: 'editing', actions: 'clear' } },
    },
    results: {
      tags: ['form'],
      on: {
        'search.run': { target: 'running', actions: 'send' },
        'search.clear': { target: 'editing', actions: 'clear' },
        'candidate.toggle': { guard: 'canToggle', actions: 'toggle' },
        'candidates.clear': { actions: assign({ selected: [] }) },
        promote: { guard: 'hasSelection', target: 'promoting', actions: assign({ error: null, failedCall: null }) },
      },
    },
    promoting: {
      tags: ['busy'],
      invoke: {
        src: 'promote',
        input: ({ context }) => ({
          profileId: context.profileId,
          body: { searchRuleId: context.answer!.rule.id, populationIds: context.answer!.populations.map((p) => p.id), candidateIds: context.selected },
        }),
        onDone: {
          target: 'promoted',
          actions: assign(({ context, event }) => {
            // The list now says which candidates are hits, so they cannot be ticked again.
            const hit = new Set(event.output.hits.map((h) => h.candidateId));
            const answer = context.answer && { ...context.answer, candidates: context.answer.candidates.map((c) => (hit.has(c.profileId) ? { ...c, alreadyHit: true } : c)) };
            return { promoted: event.output, answer, selected: [] };
          }),
        },
        // The list and the ticks stay: Try again sends the same promotion.
        onError: { target: 'failed', actions: assign({ error: ({ event }) => toEditorError(event.error), failedCall: 'promote' }) },
      },
    },
    promoted: {
      tags: ['form'],
      on: {
        'promoted.back': { target: 'results', actions: assign({ promoted: null }) },
        'search.run': { target: 'running', actions: 'send' },
        'search.clear': { target: 'editing', actions: 'clear' },
      },
    },
    failed: {
      tags: ['form'],
      on: {
        retry: [
          { guard: 'searchFailed', target: 'running', actions: assign({ error: null, failedCall: null }) },
          { guard: 'promoteFailed', target: 'promoting', actions: assign({ error: null, failedCall: null }) },
        ],
        // A failed promotion goes back to its list (the ticks kept); a failed search to the plain form.
        'failure.dismiss': [{ guard: 'promoteFailed', target: 'results', actions: assign({ error: null, failedCall: null }) }, { target: 'editing', actions: 'clear' }],
        'search.run': { target: 'running', actions: 'send' },
        'search.clear': { target: 'editing', actions: 'clear' },
      },
    },
  },
});
