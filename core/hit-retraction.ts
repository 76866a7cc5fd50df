import type { HitStatus } from './schemas/hits';

/**
 * Resetting a published hit retracts a result others may have acted on (issue 18): it needs a reason, kept in the
 * hit's history and e-mailed to the people told of the publication. A rejected hit resets with optional comments.
 */
export const resetNeedsReason = (status: HitStatus): boolean => status === 'published';

export const RETRACTION_REASON_REQUIRED =
  'Resetting a published hit retracts it: give a reason. It is kept in the hit’s history and e-mailed to the people notified of the publication.';
