import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type {
  ApproveProfileBody,
  MarkerValueInput,
  ProfileWithMarkers,
  RejectProfileBody,
  ResetProfileBody,
} from '../core/schemas/profiles';
import { toEditorError, type EditorError } from './recordEditor.machine';

/**
 * Reviewing one profile (spec 4 "Profiles"; ARCHITECTURE.md "States"): a pending profile is
 * approved (with its marker values and comments) or rejected (with a reason); an approved or
 * rejected one is reset to pending, or reset and every hit naming it deleted. Each decision is
 * confirmed before it is sent. A 409 means someone else changed the profile: the user reloads it.
 * Pure: the decision and the reload are injected actors.
 */

/** The part of a profile the review needs: what it is, its version for the write, its status and markers. */
export type ReviewedProfile = Pick<ProfileWithMarkers, 'id' | 'version' | 'status' | 'markerValues'>;

/** What the user may do, from core/permissions.ts `can()`: Profiles Edit (approve, reject) and Profiles Reset. */
export interface ReviewPermissions {
  review: boolean;
  reset: boolean;
}

export interface ProfileReviewInput {
  profile: ReviewedProfile;
  allowed: ReviewPermissions;
}

export type ReviewAction = 'approve' | 'reject' | 'reset' | 'reset-delete';

/** A decision awaiting confirmation (or being sent): the action and what the user typed for it. */
export type ReviewDecision =
  | { action: 'approve'; comments: string }
  | { action: 'reject'; reason: string }
  | { action: 'reset'; comments: string }
  | { action: 'reset-delete' };

/** The `transition` call's input: one review call, with the server's body for it (reset-delete has none). */
export type TransitionRequest = { profileId: string; version: number } & (
  | { action: 'approve'; body: ApproveProfileBody }
  | { action: 'reject'; body: RejectProfileBody }
  | { action: 'reset'; body: ResetProfileBody }
  | { action: 'reset-delete'; body: null }
);

export interface ProfileReviewContext extends ProfileReviewInput {
  decision: ReviewDecision | null;
  /** What the last decision did, for a notice ('Approved', …); cleared when the next one starts. */
  lastDone: string | null;
  error: EditorError | null;
}

export type ProfileReviewEvent =
  | { type: 'profile.approve'; comments: string }
  | { type: 'profile.reject'; reason: string }
  | { type: 'profile.reset'; comments: string }
  | { type: 'profile.resetDelete' }
  | { type: 'decision.confirm' }
  | { type: 'decision.cancel' }
  /** After a 409: read the profile as it is now. */
  | { type: 'profile.reload' }
  | { type: 'decision.retry' }
  | { type: 'failure.dismiss' };

/** Tags the view asks with hasTag: `busy` while a call runs. */
export type ProfileReviewTag = 'busy';

/** The notice after each decision succeeds. */
export const REVIEW_DONE: Record<ReviewAction, string> = {
  approve: 'Approved',
  reject: 'Rejected',
  reset: 'Reset to pending',
  'reset-delete': 'Reset and its hits deleted',
};

/** What each decision will do, for the confirmation (ARCHITECTURE.md "States"). */
export const REVIEW_CONSEQUENCES: Record<ReviewAction, string> = {
  approve: 'The profile is approved with these marker values and is searched against the database from then on.',
  reject: 'The profile is rejected and is not searched.',
  reset: 'The profile returns to pending: it leaves the database and its pending hits are withdrawn.',
  'reset-delete': 'The profile returns to pending and every hit that names it is deleted. This cannot be undone.',
};

/** The decisions the profile's status and the user's permissions allow now (the rules of the review routes). */
export function availableActions(context: Pick<ProfileReviewContext, 'profile' | 'allowed'>): ReviewAction[] {
  const { profile, allowed } = context;
  if (profile.status === 'pending') {
    if (!allowed.review) return [];
    // The server refuses to approve a profile without marker values.
    return profile.markerValues.length > 0 ? ['approve', 'reject'] : ['reject'];
  }
  return allowed.reset ? ['reset', 'reset-delete'] : [];
}

const markerInputs = (profile: ReviewedProfile): MarkerValueInput[] => profile.markerValues.map(({ markerId, alleles }) => ({ markerId, alleles }));

/** The review call for a decision on the profile as the screen holds it. */
export function transitionRequest(profile: ReviewedProfile, decision: ReviewDecision): TransitionRequest {
  const { id: profileId, version } = profile;
  switch (decision.action) {
    case 'approve':
      return { profileId, version, action: 'approve', body: { markerValues: markerInputs(profile), comments: decision.comments, version } };
    case 'reject':
      return { profileId, version, action: 'reject', body: { reason: decision.reason.trim(), version } };
    case 'reset':
      return { profileId, version, action: 'reset', body: { comments: decision.comments, version } };
    case 'reset-delete':
      return { profileId, version, action: 'reset-delete', body: null };
  }
}

const notProvided = async (): Promise<never> => {
  throw new Error('profileReviewMachine: provide this actor (the profile review screen)');
};

const allows = (action: ReviewAction) => ({ context }: { context: ProfileReviewContext }) => availableActions(context).includes(action);

export const profileReviewMachine = setup({
  types: {
    context: {} as ProfileReviewContext,
    events: {} as ProfileReviewEvent,
    input: {} as ProfileReviewInput,
    tags: {} as ProfileReviewTag,
  },
  actors: {
    transition: fromPromise<ReviewedProfile, TransitionRequest>(notProvided),
    reload: fromPromise<ReviewedProfile, { profileId: string }>(notProvided),
  },
  guards: {
    mayApprove: allows('approve'),
    // A rejection says why (RejectProfileBody: reason required).
    mayReject: ({ context, event }) => {
      assertEvent(event, 'profile.reject');
      return allows('reject')({ context }) && event.reason.trim() !== '';
    },
    mayReset: allows('reset'),
    mayResetDelete: allows('reset-delete'),
    isConflict: (_, params: { error: unknown }) => toEditorError(params.error).status === 409,
  },
  actions: {
    decide: assign((_, params: { decision: ReviewDecision }) => ({ decision: params.decision, lastDone: null, error: null })),
    storeProfile: assign((_, params: { profile: ReviewedProfile }) => ({ profile: params.profile, decision: null, error: null })),
    storeError: assign((_, params: { error: unknown }) => ({ error: toEditorError(params.error) })),
    forgetDecision: assign({ decision: null, error: null }),
  },
}).createMachine({
  id: 'profileReview',
  context: ({ input }) => ({ ...input, decision: null, lastDone: null, error: null }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'profile.approve': {
          guard: 'mayApprove',
          target: 'confirming',
          actions: { type: 'decide', params: ({ event }) => ({ decision: { action: 'approve', comments: event.comments } }) },
        },
        'profile.reject': {
          guard: 'mayReject',
          target: 'confirming',
          actions: { type: 'decide', params: ({ event }) => ({ decision: { action: 'reject', reason: event.reason } }) },
        },
        'profile.reset': {
          guard: 'mayReset',
          target: 'confirming',
          actions: { type: 'decide', params: ({ event }) => ({ decision: { action: 'reset', comments: event.comments } }) },
        },
        'profile.resetDelete': {
          guard: 'mayResetDelete',
          target: 'confirming',
          actions: { type: 'decide', params: { decision: { action: 'reset-delete' } } },
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
        input: ({ context }) => transitionRequest(context.profile, context.decision!),
        onDone: {
          target: 'idle',
          actions: [
            assign({ lastDone: ({ context }) => REVIEW_DONE[context.decision!.action] }),
            { type: 'storeProfile', params: ({ event }) => ({ profile: event.output }) },
          ],
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
    /** Someone else changed the profile (409): the decision cannot be sent as it is; reload first. */
    conflict: {
      on: { 'profile.reload': 'reloading' },
    },
    reloading: {
      tags: ['busy'],
      invoke: {
        src: 'reload',
        input: ({ context }) => ({ profileId: context.profile.id }),
        onDone: { target: 'idle', actions: { type: 'storeProfile', params: ({ event }) => ({ profile: event.output }) } },
        // The reload failed too: its message is shown and Reload stays offered.
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
