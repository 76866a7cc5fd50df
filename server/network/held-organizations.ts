import { eq } from 'drizzle-orm';
import type { Db } from '../db/database';
import { lowerInstanceOrganizations, lowerInstances } from '../db/schema';

/** Why an organization may not be renamed or deleted here: it is held for a lower instance; null when it is not. */
export async function heldForLowerInstance(db: Db, organizationId: string): Promise<string | null> {
  const [held] = await db
    .select({ name: lowerInstances.name })
    .from(lowerInstanceOrganizations)
    .innerJoin(lowerInstances, eq(lowerInstances.id, lowerInstanceOrganizations.lowerInstanceId))
    .where(eq(lowerInstanceOrganizations.organizationId, organizationId));
  return held ? `it is held for the lower instance "${held.name}" and is read-only here` : null;
}
