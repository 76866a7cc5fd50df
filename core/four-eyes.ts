/**
 * Four-eyes review (issue 18; ISO/IEC 17025 7.8, FBI QAS 12): where an organization reviews with four eyes,
 * whoever entered or imported a profile may not approve it, nor publish a hit resting on it. The server refuses
 * with these words; the screens use the same rule to say so before anyone tries.
 */

/** Whether `userId` entered the profile `enteredById` names in an organization that reviews with four eyes. */
export function isOwnProfile(enteredById: string | null, userId: string, fourEyesReview: boolean): boolean {
  return fourEyesReview && enteredById !== null && enteredById === userId;
}

/** Why the approval of one's own profile is refused. */
export const ownProfileRefusal = (profileId: string): string =>
  `Four-eyes review: you entered or imported profile ${profileId}, so another person must approve it.`;

/** Why publishing a hit resting on one's own profiles is refused. */
export const ownHitRefusal = (profileIds: readonly string[]): string =>
  `Four-eyes review: this hit rests on profile ${profileIds.join(', ')}, which you entered or imported, so another person must publish it.`;
