import { assign, fromPromise, setup } from 'xstate';
import { BULK_REVIEW_LIMIT, type BulkReviewResult } from '../core/schemas/bulk-review';
import { toEditorError, type EditorError } from './recordEditor.machine';

/**
 * Deciding several reviewed records at once (issue 18): profiles approved or rejected, hits published or
 * rejected. The reviewer selects rows (up to BULK_REVIEW_LIMIT), picks a decision, sees what will be decided
 * and confirms it (a rejection needs a reason); one call decides every record on the server, each on its
 * own, and the answer says what became of each. A failure of the whole call (offline, a 400) keeps the
 * decision to send again or drop. Pure: the call is injected (`withCall`); the rules come from the domain.
 */

/** A selected row: which record, the version the reviewer saw, and how the result names it (a sample name, a hit's profiles). */
export interface BulkSelected {
  id: string;
  version: number;
  label: string;
}

/** The decision awaiting confirmation: the action, the comments or reason typed for it, and (publishing) whether to notify. */
export interface BulkDecision<A extends string> {
  action: A;
  text: string;
  notify: boolean;
}

/** The bulk call's input: the decision and the records it applies to, with their versions. */
export interface BulkRequest<A extends string> extends BulkDecision<A> {
  items: { id: string; version: number }[];
}

export interface BulkReviewInput<A extends string> {
  /** The decisions the user's permissions allow (core/permissions.ts `can()`); none: nothing can be selected. */
  allowed: readonly A[];
}

export interface BulkReviewContext<A extends string> extends BulkReviewInput<A> {
  selected: BulkSelected[];
  decision: BulkDecision<A> | null;
  /** The records of the last call sent, so its result names them. */
  sent: BulkSelected[];
  /** What the last call decided, with the action it applied. */
  outcome: { action: A; result: BulkReviewResult } | null;
  error: EditorError | null;
}

export type BulkReviewEvent<A extends string> =
  | { type: 'selection.toggle'; record: BulkSelected }
  | { type: 'selection.clear' }
  | { type: 'bulk.start'; action: A }
  | { type: 'text.change'; text: string }
  | { type: 'notify.change'; notify: boolean }
  | { type: 'bulk.confirm' }
  | { type: 'bulk.cancel' }
  | { type: 'bulk.retry' }
  | { type: 'failure.dismiss' }
  | { type: 'outcome.dismiss' };

/** A domain's rules: which decisions need a reason, and the word for a record once decided ("approved"). */
export interface BulkReviewRules<A extends string> {
  id: string;
  needsReason(action: A): boolean;
  past: Record<A, string>;
}

/** What the last call came to, in words: "5 published; 1 refused", and each refused record with the reason. */
export function describeOutcome<A extends string>(rules: Pick<BulkReviewRules<A>, 'past'>, context: Pick<BulkReviewContext<A>, 'outcome' | 'sent'>) {
  if (!context.outcome) return null;
  const { action, result } = context.outcome;
  const labels = new Map(context.sent.map((s) => [s.id, s.label]));
  const done = `${result.done === 0 ? 'None' : result.done} ${rules.past[action]}`;
  return {
    summary: result.refused === 0 ? `${done}.` : `${done}; ${result.refused} refused.`,
    refused: result.results.filter((r) => r.outcome === 'refused').map((r) => ({ id: r.id, label: labels.get(r.id) ?? r.id, message: r.message })),
  };
}

/** Whether the decision may be sent: a rejection needs a reason. */
export function decisionReady<A extends string>(rules: Pick<BulkReviewRules<A>, 'needsReason'>, decision: BulkDecision<A> | null): boolean {
  return decision !== null && (!rules.needsReason(decision.action) || decision.text.trim() !== '');
}

/**
 * The bulk review machine of one domain, and `withCall` to give it the bulk call. (The actor is declared over
 * string actions: XState cannot type an invoke over a generic actor, so `withCall` is where the types meet.)
 */
export function createBulkReviewMachine<A extends string>(rules: BulkReviewRules<A>) {
  type Context = BulkReviewContext<A>;
  const machine = setup({
    types: {
      context: {} as Context,
      events: {} as BulkReviewEvent<A>,
      input: {} as BulkReviewInput<A>,
      tags: {} as 'busy',
    },
    actors: {
      decide: fromPromise<BulkReviewResult, BulkRequest<string>>(async () => {
        throw new Error(`${rules.id}Machine: provide its call (withCall)`);
      }),
    },
    guards: {
      canSelect: ({ context, event }) =>
        event.type === 'selection.toggle' &&
        context.allowed.length > 0 &&
        (context.selected.some((s) => s.id === event.record.id) || context.selected.length < BULK_REVIEW_LIMIT),
      canStart: ({ context, event }) => event.type === 'bulk.start' && context.selected.length > 0 && context.allowed.includes(event.action),
      ready: ({ context }) => decisionReady(rules, context.decision),
    },
    actions: {
      toggle: assign({
        selected: ({ context, event }) => {
          if (event.type !== 'selection.toggle') return context.selected;
          const { record } = event;
          return context.selected.some((s) => s.id === record.id) ? context.selected.filter((s) => s.id !== record.id) : [...context.selected, record];
        },
      }),
      clear: assign({ selected: [] }),
      start: assign({
        decision: ({ event }) => (event.type === 'bulk.start' ? { action: event.action, text: '', notify: true } : null),
        error: null,
      }),
      setText: assign({ decision: ({ context, event }) => (event.type === 'text.change' && context.decision ? { ...context.decision, text: event.text } : context.decision) }),
      setNotify: assign({ decision: ({ context, event }) => (event.type === 'notify.change' && context.decision ? { ...context.decision, notify: event.notify } : context.decision) }),
      forget: assign({ decision: null, error: null }),
      send: assign({ sent: ({ context }) => context.selected, error: null }),
      // Every selected record was decided or refused: the list is read again, so the selection starts afresh.
      storeOutcome: assign((_, params: { result: BulkReviewResult; action: A }) => ({ outcome: { action: params.action, result: params.result }, selected: [], decision: null })),
      storeError: assign((_, params: { error: unknown }) => ({ error: toEditorError(params.error) })),
      dismissOutcome: assign({ outcome: null }),
    },
  }).createMachine({
    id: rules.id,
    context: ({ input }) => ({ allowed: input.allowed, selected: [], decision: null, sent: [], outcome: null, error: null }),
    initial: 'idle',
    states: {
      /** Rows are selected; the bar offers the decisions once one is. */
      idle: {
        on: {
          'selection.toggle': { guard: 'canSelect', actions: 'toggle' },
          'selection.clear': { actions: 'clear' },
          'bulk.start': { guard: 'canStart', target: 'confirming', actions: 'start' },
          'outcome.dismiss': { actions: 'dismissOutcome' },
        },
      },
      /** What will be decided is listed; a rejection's reason (or comments) is typed; nothing is sent before Confirm. */
      confirming: {
        on: {
          'text.change': { actions: 'setText' },
          'notify.change': { actions: 'setNotify' },
          'bulk.confirm': { guard: 'ready', target: 'submitting', actions: 'send' },
          'bulk.cancel': { target: 'idle', actions: 'forget' },
        },
      },
      submitting: {
        tags: ['busy'],
        invoke: {
          src: 'decide',
          input: ({ context }) => ({ ...context.decision!, items: context.sent.map(({ id, version }) => ({ id, version })) }),
          onDone: { target: 'idle', actions: { type: 'storeOutcome', params: ({ context, event }) => ({ result: event.output, action: context.decision!.action }) } },
          onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
        },
      },
      /** The call failed as a whole (nothing or only part may have been decided): send it again, or drop the decision. */
      failed: {
        on: {
          'bulk.retry': { target: 'submitting', actions: 'send' },
          'failure.dismiss': { target: 'idle', actions: 'forget' },
        },
      },
    },
  });
  const withCall = (decide: (request: BulkRequest<A>) => Promise<BulkReviewResult>) =>
    machine.provide({ actors: { decide: fromPromise<BulkReviewResult, BulkRequest<string>>(({ input }) => decide(input as BulkRequest<A>)) } });
  return { machine, withCall, rules };
}

/** Profiles on the Review list: approved with their stored marker values, or rejected with a reason. */
export type ProfileBulkAction = 'approve' | 'reject';
export const profileBulkReview = createBulkReviewMachine<ProfileBulkAction>({
  id: 'profileBulkReview',
  needsReason: (action) => action === 'reject',
  past: { approve: 'approved', reject: 'rejected' },
});

/** Hits on the Review list: published (notifying or not) or rejected with a reason. */
export type HitBulkAction = 'publish' | 'reject';
export const hitBulkReview = createBulkReviewMachine<HitBulkAction>({
  id: 'hitBulkReview',
  needsReason: (action) => action === 'reject',
  past: { publish: 'published', reject: 'rejected' },
});
