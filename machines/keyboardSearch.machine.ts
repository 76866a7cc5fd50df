import { assign, fromPromise, setup } from 'xstate';
import type { KeyboardSearchAnswer, KeyboardSearchBody } from '../core/schemas/keyboard-search';
import { toEditorError, type EditorError } from './recordEditor.machine';

/**
 * The keyboard search (spec 2.6): the user edits a typed-in profile and its settings, searches, and
 * reads the candidates or the failure; the form stays editable beside the results so the next search
 * starts from them. Pure: the search call is an injected actor.
 */

/** One search as sent: the typed profile, its settings and the organization it is made in (its audit trail records it). */
export type KeyboardSearchRequest = KeyboardSearchBody;

export interface KeyboardSearchContext {
  /** The last search sent, kept so a failed one can be sent again. */
  request: KeyboardSearchRequest | null;
  answer: KeyboardSearchAnswer | null;
  error: EditorError | null;
}

export type KeyboardSearchEvent =
  | { type: 'search'; request: KeyboardSearchRequest }
  | { type: 'retry' }
  /** Drops the results or the failure, back to a plain form. */
  | { type: 'clear' };

export type KeyboardSearchTag = 'busy';

export const keyboardSearchMachine = setup({
  types: {
    context: {} as KeyboardSearchContext,
    events: {} as KeyboardSearchEvent,
    tags: {} as KeyboardSearchTag,
  },
  actors: {
    search: fromPromise<KeyboardSearchAnswer, KeyboardSearchRequest>(async () => {
      throw new Error('keyboardSearchMachine: provide the "search" actor (the keyboard search page)');
    }),
  },
  actions: {
    send: assign(({ event }) => (event.type === 'search' ? { request: event.request, error: null } : { error: null })),
    clear: assign({ answer: null, error: null }),
  },
}).createMachine({
  id: 'keyboardSearch',
  context: { request: null, answer: null, error: null },
  initial: 'editing',
  states: {
    editing: {
      on: { search: { target: 'searching', actions: 'send' } },
    },
    searching: {
      tags: ['busy'],
      invoke: {
        src: 'search',
        input: ({ context }) => context.request!,
        onDone: { target: 'results', actions: assign({ answer: ({ event }) => event.output }) },
        // The previous answer is dropped: it no longer matches what the form shows.
        onError: { target: 'failed', actions: assign({ answer: null, error: ({ event }) => toEditorError(event.error) }) },
      },
    },
    results: {
      on: {
        search: { target: 'searching', actions: 'send' },
        clear: { target: 'editing', actions: 'clear' },
      },
    },
    failed: {
      on: {
        search: { target: 'searching', actions: 'send' },
        retry: { target: 'searching', actions: 'send' },
        clear: { target: 'editing', actions: 'clear' },
      },
    },
  },
});
