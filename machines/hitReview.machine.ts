import { resetNeedsReason } from '../core/hit-retraction';
import type { Hit, HitStatus, PublishHitBody, RejectHitBody, ResetHitBody } from '../core/schemas/hits';
import { createReviewDecisionMachine, type ReviewDecisionContext, type ReviewDecisionEvent, type ReviewDecisionInput } from './reviewDecision.machine';

/**
 * Reviewing one hit (spec 2.4, 4 "Hits"; ARCHITECTURE.md "States"): a pending hit is published
 * (Hits Publish; comments; notify the case's assigned users) or rejected (Hits Publish; a reason);
 * a published or rejected one is reset to pending (Hits Reset; a published one only with a reason: it is a
 * retraction, e-mailed to whoever its publication notified). Four-eyes review keeps who entered one of its
 * profiles from publishing it (core/four-eyes.ts). The confirmation, the 409 when
 * another reviewer decided first (e.g. two reviewers at once) and the reload are the shared review
 * chart of machines/reviewDecision; this file holds the hit's rules.
 */

export type { HitStatus } from '../core/schemas/hits';

/** The part of a hit the review needs: what it is, its version for the write, its status. */
export type ReviewedHit = Pick<Hit, 'id' | 'version' | 'status'>;

/** What the user may do, from core/permissions.ts `can()`: Hits Publish (publish, reject) and Hits Reset. */
export interface HitReviewPermissions {
  publish: boolean;
  reset: boolean;
  /** Four-eyes review: the hit rests on a profile the user entered, so they may reject it but not publish it (absent: no). */
  ownProfile?: boolean;
}

export type HitReviewInput = ReviewDecisionInput<ReviewedHit, HitReviewPermissions>;

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

export type HitReviewContext = ReviewDecisionContext<ReviewedHit, HitReviewPermissions, HitDecision>;

export type HitReviewEvent = ReviewDecisionEvent<HitDecision>;

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

/** What resetting a published hit adds: it is a retraction, and who is told. */
export const RETRACTION_CONSEQUENCE = 'It is retracted: whoever its publication notified is e-mailed your reason.';

/** The consequence of a decision on a hit in status `from` as the confirmation states it (publishing and retracting say who is told). */
export function decisionConsequence(decision: HitDecision, from: HitStatus): string {
  if (decision.action === 'reset' && resetNeedsReason(from)) return `${HIT_CONSEQUENCES.reset} ${RETRACTION_CONSEQUENCE}`;
  if (decision.action !== 'publish') return HIT_CONSEQUENCES[decision.action];
  const notice = decision.notify ? "The case's assigned users who receive notifications are e-mailed." : 'Nobody is e-mailed.';
  return `${HIT_CONSEQUENCES.publish} ${notice}`;
}

/** The decisions the hit's status and the user's permissions allow now (the server's transitions). */
export function availableActions(hit: Pick<ReviewedHit, 'status'>, allowed: HitReviewPermissions): HitAction[] {
  if (hit.status === 'pending') return allowed.publish ? (allowed.ownProfile ? ['reject'] : ['publish', 'reject']) : [];
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

/** Whether the decision carries the reason it needs: a rejection's, and a retraction's (reset of a published hit). */
export function hasNeededReason(hit: Pick<ReviewedHit, 'status'>, decision: HitDecision): boolean {
  if (decision.action === 'reject') return decision.reason.trim() !== '';
  if (decision.action === 'reset' && resetNeedsReason(hit.status)) return decision.comments.trim() !== '';
  return true;
}

/** A decision the hit's status and the permissions allow now, with the reason it needs (ARCHITECTURE.md: reason required). */
export function allowsDecision(hit: ReviewedHit, allowed: HitReviewPermissions, decision: HitDecision): boolean {
  return availableActions(hit, allowed).includes(decision.action) && hasNeededReason(hit, decision);
}

export const hitReview = createReviewDecisionMachine<ReviewedHit, HitReviewPermissions, HitDecision, HitTransitionRequest>({
  id: 'hitReview',
  allows: allowsDecision,
  request: transitionRequest,
  done: (decision) => HIT_DONE[decision.action],
});

export const hitReviewMachine = hitReview.machine;
