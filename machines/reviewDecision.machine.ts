import { assign, fromPromise, setup } from 'xstate';
import { toEditorError, type EditorError } from './recordEditor.machine';

/**
 * Deciding on one reviewed record (ARCHITECTURE.md "States"): a profile is approved, rejected or reset
 * (machines/profileReview), a hit published, rejected or reset (machines/hitReview). Each decision the
 * record's status and the user's permissions allow is confirmed before it is sent. A 409 means the
 * record changed since it was read (someone else decided first): the decision cannot stand, and the
 * only way on is to reload the record. Another failure keeps the decision, to send again or drop.
 * Pure: the decision call and the reload are injected actors (`withCalls`); the rules come from the
 * domain's machine.
 */

/** A reviewed record: what it is, and the version its next write carries. */
export interface ReviewedRecord {
  id: string;
  version: number;
}

export interface ReviewDecisionInput<R, P> {
  record: R;
  /** What the user may do, from core/permissions.ts `can()`. */
  allowed: P;
}

export interface ReviewDecisionContext<R, P, D> extends ReviewDecisionInput<R, P> {
  /** The decision awaiting confirmation, being sent, or kept after a failure. */
  decision: D | null;
  /** What the last decision did, for a notice ('Published', …); cleared when the next one starts. */
  lastDone: string | null;
  error: EditorError | null;
}

export type ReviewDecisionEvent<D> =
  | { type: 'decision.start'; decision: D }
  | { type: 'decision.confirm' }
  | { type: 'decision.cancel' }
  /** After a 409: read the record as it is now. */
  | { type: 'record.reload' }
  | { type: 'decision.retry' }
  | { type: 'failure.dismiss' };

/** Tags the view asks with hasTag: `busy` while a call runs. */
export type ReviewDecisionTag = 'busy';

/** A domain's rules: which decisions stand now, the call that sends one, and the notice once it did. */
export interface ReviewRules<R, P, D, Request> {
  id: string;
  /** Whether the decision may be made now: the record's status, the permissions, and what it needs (a rejection's reason). */
  allows(record: R, allowed: P, decision: D): boolean;
  request(record: R, decision: D): Request;
  done(decision: D): string;
}

/** The calls a screen (or a test) gives the machine: send a decision, read the record again; each answers with the record as it now is. */
export interface ReviewCalls<R, Request> {
  transition(request: Request): Promise<R>;
  reload(id: string): Promise<R>;
}

/**
 * The review machine of one domain: the shared chart with that domain's rules, and `withCalls` to
 * give it its calls. (The actors are declared over ReviewedRecord: XState cannot type an invoke over
 * a generic actor, so `withCalls` is where the domain's request and record types meet them.)
 */
export function createReviewDecisionMachine<R extends ReviewedRecord, P, D extends { action: string }, Request>(rules: ReviewRules<R, P, D, Request>) {
  const notProvided = async (): Promise<never> => {
    throw new Error(`${rules.id}Machine: provide its calls (withCalls)`);
  };
  const machine = setup({
    types: {
      context: {} as ReviewDecisionContext<R, P, D>,
      events: {} as ReviewDecisionEvent<D>,
      input: {} as ReviewDecisionInput<R, P>,
      tags: {} as ReviewDecisionTag,
    },
    actors: {
      transition: fromPromise<ReviewedRecord, unknown>(notProvided),
      reload: fromPromise<ReviewedRecord, { id: string }>(notProvided),
    },
    guards: {
      allowsDecision: ({ context, event }) => event.type === 'decision.start' && rules.allows(context.record, context.allowed, event.decision),
      isConflict: (_, params: { error: unknown }) => toEditorError(params.error).status === 409,
    },
    actions: {
      decide: assign((_, params: { decision: D }) => ({ decision: params.decision, lastDone: null, error: null })),
      // The record is what this domain's own calls answered (withCalls).
      storeRecord: assign((_, params: { record: ReviewedRecord }) => ({ record: params.record as R, decision: null, error: null })),
      storeError: assign((_, params: { error: unknown }) => ({ error: toEditorError(params.error) })),
      forgetDecision: assign({ decision: null, error: null }),
      markDone: assign({ lastDone: ({ context }: { context: ReviewDecisionContext<R, P, D> }) => rules.done(context.decision!) }),
      clearError: assign({ error: null }),
    },
  }).createMachine({
    id: rules.id,
    context: ({ input }) => ({ ...input, decision: null, lastDone: null, error: null }),
    initial: 'idle',
    states: {
      idle: {
        on: {
          'decision.start': {
            guard: 'allowsDecision',
            target: 'confirming',
            actions: { type: 'decide', params: ({ event }) => ({ decision: event.decision }) },
          },
        },
      },
      /** The decision and its consequences are shown; nothing is sent before Confirm. */
      confirming: {
        on: {
          'decision.confirm': 'submitting',
          'decision.cancel': { target: 'idle', actions: 'forgetDecision' },
        },
      },
      submitting: {
        tags: ['busy'],
        invoke: {
          src: 'transition',
          input: ({ context }: { context: ReviewDecisionContext<R, P, D> }) => rules.request(context.record, context.decision!),
          onDone: {
            target: 'idle',
            actions: ['markDone', { type: 'storeRecord', params: ({ event }) => ({ record: event.output }) }],
          },
          onError: [
            {
              guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) },
              target: 'conflict',
              actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            },
            { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
          ],
        },
      },
      /** The record changed since it was read (409): the decision cannot be sent as it is; reload first. */
      conflict: {
        on: { 'record.reload': 'reloading' },
      },
      reloading: {
        tags: ['busy'],
        invoke: {
          src: 'reload',
          input: ({ context }) => ({ id: context.record.id }),
          onDone: { target: 'idle', actions: { type: 'storeRecord', params: ({ event }) => ({ record: event.output }) } },
          // The reload failed too: its message is shown and Reload stays the only way on.
          onError: { target: 'conflict', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
        },
      },
      /** The decision failed for another reason; it is kept, so it can be sent again. */
      failed: {
        on: {
          'decision.retry': { target: 'submitting', actions: 'clearError' },
          'failure.dismiss': { target: 'idle', actions: 'forgetDecision' },
        },
      },
    },
  });
  /** The machine with a screen's (or a test's) calls. */
  const withCalls = (calls: ReviewCalls<R, Request>) =>
    machine.provide({
      actors: {
        transition: fromPromise<ReviewedRecord, unknown>(({ input }) => calls.transition(input as Request)),
        reload: fromPromise<ReviewedRecord, { id: string }>(({ input }) => calls.reload(input.id)),
      },
    });
  return { machine, withCalls };
}
