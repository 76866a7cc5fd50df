import type {
  ApproveProfileBody,
  MarkerValueInput,
  ProfileWithMarkers,
  RejectProfileBody,
  ResetProfileBody,
} from '../core/schemas/profiles';
import { createReviewDecisionMachine, type ReviewDecisionContext, type ReviewDecisionEvent, type ReviewDecisionInput } from './reviewDecision.machine';

/**
 * Reviewing one profile (spec 4 "Profiles"; ARCHITECTURE.md "States"): a pending profile is
 * approved (with its marker values and comments) or rejected (with a reason); an approved or
 * rejected one is reset to pending, or reset and every hit naming it deleted. The confirmation, the
 * 409 when someone else changed the profile and the reload are the shared review chart of
 * machines/reviewDecision; this file holds the profile's rules.
 */

/** The part of a profile the review needs: what it is, its version for the write, its status and markers. */
export type ReviewedProfile = Pick<ProfileWithMarkers, 'id' | 'version' | 'status' | 'markerValues'>;

/** What the user may do, from core/permissions.ts `can()`: Profiles Edit (approve, reject) and Profiles Reset. */
export interface ReviewPermissions {
  review: boolean;
  reset: boolean;
  /** Four-eyes review: the user entered this profile, so they may reject it but not approve it (core/four-eyes.ts; absent: no). */
  ownProfile?: boolean;
}

export type ProfileReviewInput = ReviewDecisionInput<ReviewedProfile, ReviewPermissions>;

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

export type ProfileReviewContext = ReviewDecisionContext<ReviewedProfile, ReviewPermissions, ReviewDecision>;

export type ProfileReviewEvent = ReviewDecisionEvent<ReviewDecision>;

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
export function availableActions(profile: Pick<ReviewedProfile, 'status' | 'markerValues'>, allowed: ReviewPermissions): ReviewAction[] {
  if (profile.status === 'pending') {
    if (!allowed.review) return [];
    // The server refuses to approve a profile without marker values, and one's own under four-eyes review.
    return profile.markerValues.length > 0 && !allowed.ownProfile ? ['approve', 'reject'] : ['reject'];
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

/** A decision the profile's status and the permissions allow now; a rejection says why (RejectProfileBody: reason required). */
export function allowsDecision(profile: ReviewedProfile, allowed: ReviewPermissions, decision: ReviewDecision): boolean {
  return availableActions(profile, allowed).includes(decision.action) && (decision.action !== 'reject' || decision.reason.trim() !== '');
}

export const profileReview = createReviewDecisionMachine<ReviewedProfile, ReviewPermissions, ReviewDecision, TransitionRequest>({
  id: 'profileReview',
  allows: allowsDecision,
  request: transitionRequest,
  done: (decision) => REVIEW_DONE[decision.action],
});

export const profileReviewMachine = profileReview.machine;
