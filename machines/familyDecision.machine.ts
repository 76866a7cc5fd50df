import type { Family, FamilySearchAnswer } from '../core/schemas/families';
import { createReviewDecisionMachine, type ReviewDecisionContext, type ReviewDecisionEvent, type ReviewDecisionInput } from './reviewDecision.machine';

/**
 * Deciding on one missing-person family of a case (issue 16): a draft or inactive family is activated (it searches
 * every approved remains profile of its organization), an active one deactivated, and one that is not active and found
 * no hits deleted. Each is confirmed first; a 409 (the family changed, or the server refuses) reloads it. The chart is
 * the shared review chart of machines/reviewDecision; this file holds the family's rules.
 */

export type FamilyAction = 'activate' | 'deactivate' | 'delete';
export type FamilyDecision = { action: FamilyAction };

/** The family as the screen holds it: what the last activation searched, and whether it was deleted. */
export type DecidedFamily = Family & { lastSearch: Pick<FamilySearchAnswer, 'searchedProfiles' | 'hitsAdded'> | null; deleted: boolean };

/** Cases Edit, from core/permissions.ts `can()`: every family decision needs it. */
export interface FamilyPermissions {
  edit: boolean;
}

export type FamilyDecisionInput = ReviewDecisionInput<DecidedFamily, FamilyPermissions>;
export type FamilyDecisionContext = ReviewDecisionContext<DecidedFamily, FamilyPermissions, FamilyDecision>;
export type FamilyDecisionEvent = ReviewDecisionEvent<FamilyDecision>;

/** The call for a decision on the family as the screen holds it. */
export interface FamilyDecisionRequest {
  /** The family as read: its id and version go to the server; a delete answers with it, marked deleted. */
  family: DecidedFamily;
  action: FamilyAction;
}

export const FAMILY_DONE: Record<FamilyAction, string> = { activate: 'Activated', deactivate: 'Deactivated', delete: 'Deleted' };

/** What each decision does, for the confirmation. */
export const FAMILY_CONSEQUENCES: Record<FamilyAction, string> = {
  activate:
    'Every approved Unidentified Human (Remains) profile of the organization is weighed against this family now, and each new one as it is approved. Results over the threshold become pending hits.',
  deactivate: 'The family is no longer searched. Its hits stay.',
  delete: 'The family is removed from the case. This cannot be undone.',
};

/** A family as the screen first holds it: nothing searched yet in this session. */
export const decidedFamily = (family: Family): DecidedFamily => ({ ...family, lastSearch: null, deleted: false });

/** The decisions the family's status allows now (server/http/families: a family with hits is never deleted). */
export function availableFamilyActions(family: Pick<Family, 'status' | 'hitCount'>, allowed: FamilyPermissions): FamilyAction[] {
  if (!allowed.edit) return [];
  if (family.status === 'active') return ['deactivate'];
  return family.hitCount === 0 ? ['activate', 'delete'] : ['activate'];
}

export const familyDecision = createReviewDecisionMachine<DecidedFamily, FamilyPermissions, FamilyDecision, FamilyDecisionRequest>({
  id: 'familyDecision',
  allows: (family, allowed, decision) => !family.deleted && availableFamilyActions(family, allowed).includes(decision.action),
  request: (family, decision) => ({ family, action: decision.action }),
  done: (decision) => FAMILY_DONE[decision.action],
});

export const familyDecisionMachine = familyDecision.machine;
