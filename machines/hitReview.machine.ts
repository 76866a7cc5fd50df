import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { Hit, PublishHitBody, RejectHitBody, ResetHitBody } from '../core/schemas/hits';
import { toEditorError, type EditorError } from './recordEditor.machine';

/**
 * Reviewing one hit (spec 2.4, 4 "Hits"; ARCHITECTURE.md "States"): a pending hit is published
 * (Hits Publish; comments; notify the case's assigned users) or rejected (Hits Publish; a reason);
 * a published or rejected one is reset to pending (Hits Reset). Each decision is confirmed before it
 * is sent. A 409 means the hit changed since it was read (someone else decided first, e.g. two
 * reviewers at once): the decision cannot stand, and the only way on is to reload the hit.
 * Pure: the decision and the reload are injected actors.
 */

export type { HitStatus } from '../core/schemas/hits';

/** The part of a hit the review needs: what it is, its version for the write, its status. */
export type ReviewedHit = Pick<Hit, 'id' | 'version' | 'status'>;

/** What the user may do, from core/permissions.ts `can()`: Hits Publish (publish, reject) and Hits Reset. */
export interface HitReviewPermissions {
  publish: boolean;
  reset: boolean;
}

export interface HitReviewInput {
  hit: ReviewedHit;
  allowed: HitReviewPermissions;
}

export type HitAction = 'publish' | 'reject' | 'reset';

/** A decision awaiting confirmation (or being sent): the action and what the user typed for it. */
export type HitDecision =
  | { action: 'publish'; comments: string; notify: boolean }
  | { action: 'reject'; reason: string }
  | { action: 'reset'; comments: string };

/** The `transition` call's input: one review call with the version read and its body. */
export type HitTransitionRequest = { hitId: string; version: number } & (
  | { action: 'publish'; body: PublishHitBody }
  | { action: 'reject'; body: RejectHitBody }
  | { action: 'reset'; body: ResetHitBody }
);

export interface HitReviewContext extends HitReviewInput {
  decision: HitDecision | null;
  /** What the last decision did, for a notice ('Published', …); cleared when the next one starts. */
  lastDone: string | null;
  error: EditorError | null;
}

export type HitReviewEvent =
  | { type: 'hit.publish'; comments: string; notify: boolean }
  | { type: 'hit.reject'; reason: string }
  | { type: 'hit.reset'; comments: string }
  | { type: 'decision.confirm' }
  | { type: 'decision.cancel' }
  /** After a 409: read the hit as it is now. */
  | { type: 'hit.reload' }
  | { type: 'decision.retry' }
  | { type: 'failure.dismiss' };

/** Tags the view asks with hasTag: `busy` while a call runs. */
export type HitReviewTag = 'busy';

/** The notice after each decision succeeds. */
export const HIT_DONE: Record<HitAction, string> = {
  publish: 'Published',
  reject: 'Rejected',
  reset: 'Reset to pending',
};

/** What each decision will do, for the confirmation (ARCHITECTURE.md "States"). */
export const HIT_CONSEQUENCES: Record<HitAction, string> = {
  publish: 'The hit is published and listed with the published hits.',
  reject: 'The hit is rejected and listed with the rejected hits.',
  reset: 'The hit returns to pending and waits for review again.',
};

/** The consequence of a decision as the confirmation states it (publishing says whether anyone is told). */
export function decisionConsequence(decision: HitDecision): string {
  if (decision.action !== 'publish') return HIT_CONSEQUENCES[decision.action];
  const notice = decision.notify ? "The case's assigned users who receive notifications are e-mailed." : 'Nobody is e-mailed.';
  return `${HIT_CONSEQUENCES.publish} ${notice}`;
}

/** The decisions the hit's status and the user's permissions allow now (the server's transitions). */
export function availableActions(hit: Pick<ReviewedHit, 'status'>, allowed: HitReviewPermissions): HitAction[] {
  if (hit.status === 'pending') return allowed.publish ? ['publish', 'reject'] : [];
  return allowed.reset ? ['reset'] : [];
}

/** The review call for a decision on the hit as the screen holds it. */
export function transitionRequest(hit: ReviewedHit, decision: HitDecision): HitTransitionRequest {
  const { id: hitId, version } = hit;
  switch (decision.action) {
    case 'publish':
      return { hitId, version, action: 'publish', body: { comments: decision.comments.trim(), notify: decision.notify, version } };
    case 'reject':
      return { hitId, version, action: 'reject', body: { reason: decision.reason.trim(), version } };
    case 'reset':
      return { hitId, version, action: 'reset', body: { comments: decision.comments.trim(), version } };
  }
}

const notProvided = async (): Promise<never> => {
  throw new Error('hitReviewMachine: provide this actor (the hit view)');
};

const allows = (action: HitAction) => ({ context }: { context: HitReviewContext }) => availableActions(context.hit, context.allowed).includes(action);

export const hitReviewMachine = setup({
  types: {
    context: {} as HitReviewContext,
    events: {} as HitReviewEvent,
    input: {} as HitReviewInput,
    tags: {} as HitReviewTag,
  },
  actors: {
    transition: fromPromise<ReviewedHit, HitTransitionRequest>(notProvided),
    reload: fromPromise<ReviewedHit, { hitId: string }>(notProvided),
  },
  guards: {
    mayPublish: allows('publish'),
    // A rejection says why (ARCHITECTURE.md: reason required).
    mayReject: ({ context, event }) => {
      assertEvent(event, 'hit.reject');
      return allows('reject')({ context }) && event.reason.trim() !== '';
    },
    mayReset: allows('reset'),
    isConflict: (_, params: { error: unknown }) => toEditorError(params.error).status === 409,
  },
  actions: {
    decide: assign((_, params: { decision: HitDecision }) => ({ decision: params.decision, lastDone: null, error: null })),
    storeHit: assign((_, params: { hit: ReviewedHit }) => ({ hit: params.hit, decision: null, error: null })),
    storeError: assign((_, params: { error: unknown }) => ({ error: toEditorError(params.error) })),
    forgetDecision: assign({ decision: null, error: null }),
  },
}).createMachine({
  id: 'hitReview',
  context: ({ input }) => ({ ...input, decision: null, lastDone: null, error: null }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'hit.publish': {
          guard: 'mayPublish',
          target: 'confirming',
          actions: { type: 'decide', params: ({ event }) => ({ decision: { action: 'publish', comments: event.comments, notify: event.notify } }) },
        },
        'hit.reject': {
          guard: 'mayReject',
          target: 'confirming',
          actions: { type: 'decide', params: ({ event }) => ({ decision: { action: 'reject', reason: event.reason } }) },
        },
        'hit.reset': {
          guard: 'mayReset',
          target: 'confirming',
          actions: { type: 'decide', params: ({ event }) => ({ decision: { action: 'reset', comments: event.comments } }) },
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
        input: ({ context }) => transitionRequest(context.hit, context.decision!),
        onDone: {
          target: 'idle',
          actions: [assign({ lastDone: ({ context }) => HIT_DONE[context.decision!.action] }), { type: 'storeHit', params: ({ event }) => ({ hit: event.output }) }],
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
    /** The hit changed since it was read (409): the decision cannot be sent as it is; reload first. */
    conflict: {
      on: { 'hit.reload': 'reloading' },
    },
    reloading: {
      tags: ['busy'],
      invoke: {
        src: 'reload',
        input: ({ context }) => ({ hitId: context.hit.id }),
        onDone: { target: 'idle', actions: { type: 'storeHit', params: ({ event }) => ({ hit: event.output }) } },
        // The reload failed too: its message is shown and Reload stays the only way on.
        onError: { target: 'conflict', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    /** The decision failed for another reason; it is kept, so it can be sent again. */
    failed: {
      on: {
        'decision.retry': { target: 'submitting', actions: assign({ error: null }) },
        'failure.dismiss': { target: 'idle', actions: 'forgetDecision' },
      },
    },
  },
});
