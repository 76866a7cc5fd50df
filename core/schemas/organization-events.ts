import { z } from 'zod';

/** What an open page is told changed in an organization; it reads its list again (ARCHITECTURE.md "Heavy work off the request thread"). */
export const ORGANIZATION_CHANGES = ['hits', 'searches', 'profiles'] as const;
export type OrganizationChange = (typeof ORGANIZATION_CHANGES)[number];

/**
 * One server-sent event of GET organizations/{orgId}/events, the `data:` line's JSON. `hits`: hits
 * were added, withdrawn, deleted or changed state; `searches`: a database search was queued, moved
 * on or finished; `profiles` (issue 18): profiles were added, imported, approved, rejected, reset or
 * deleted. It names no record: the page reads again what the user may see.
 */
export const OrganizationEvent = z
  .object({
    type: z.enum(ORGANIZATION_CHANGES),
    /** The organization it happened in (useful at `all`). */
    organizationId: z.string(),
  })
  .meta({ id: 'OrganizationEvent' });
export type OrganizationEvent = z.infer<typeof OrganizationEvent>;
