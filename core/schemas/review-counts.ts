import { z } from 'zod';

/**
 * GET organizations/{orgId}/review-counts (issue 18): how much waits for review in the organization
 * (at `all`, every one the user reaches). Null where the user may not see that review list:
 * profiles need Profiles Read, hits Hits Publish (the Review lists' own permissions).
 */
export const ReviewCounts = z
  .object({
    /** Pending profiles: added or imported, not yet approved or rejected. */
    profilesPending: z.number().int().nonnegative().nullable(),
    /** Pending hits: found by a search, not yet published or rejected. */
    hitsPending: z.number().int().nonnegative().nullable(),
  })
  .meta({ id: 'ReviewCounts' });
export type ReviewCounts = z.infer<typeof ReviewCounts>;
