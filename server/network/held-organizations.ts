import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { lowerInstanceOrganizations, lowerInstances } from '../db/schema';

/** The lower instance an organization is held here for; null when it is not held. */
export async function holdingInstance(db: Db, organizationId: string): Promise<string | null> {
  const [held] = await db
    .select({ name: lowerInstances.name })
    .from(lowerInstanceOrganizations)
    .innerJoin(lowerInstances, eq(lowerInstances.id, lowerInstanceOrganizations.lowerInstanceId))
    .where(eq(lowerInstanceOrganizations.organizationId, organizationId));
  return held?.name ?? null;
}

/** Why an organization may not be renamed or deleted here: it is held for a lower instance; null when it is not. */
export async function heldForLowerInstance(db: Db, organizationId: string): Promise<string | null> {
  const instance = await holdingInstance(db, organizationId);
  return instance === null ? null : `it is held for the lower instance "${instance}" and is read-only here`;
}

/**
 * The organizations an approved profile's search looks in (issue 32): its own; at the upper level, for a profile held
 * for a lower instance, every laboratory held here, so the level's search rules meet profiles of different
 * laboratories (a stain of one, an offender of another) as CODIS's upper indexes do. Its own comes first.
 */
export async function searchedOrganizations(db: Db, organizationId: string): Promise<string[]> {
  const held = await db
    .select({ id: lowerInstanceOrganizations.organizationId })
    .from(lowerInstanceOrganizations)
    .where(sql`exists (select 1 from lower_instance_organizations o where o.organization_id = ${organizationId})`);
  return [organizationId, ...held.map((h) => h.id).filter((id) => id !== organizationId)];
}
