import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/database';
import { populationOrganizations, populations } from '../db/schema';
import type { ProfileKind } from '../matching/types';

/** The populations shared with an organization that hold its profiles' kind of statistics (ARCHITECTURE.md "Matching": each of the organization's populations). */
export async function organizationPopulationIds(db: Db, organizationId: string, kind: ProfileKind): Promise<string[]> {
  const rows = await db
    .select({ id: populations.id })
    .from(populations)
    .innerJoin(populationOrganizations, eq(populationOrganizations.populationId, populations.id))
    .where(and(eq(populationOrganizations.organizationId, organizationId), eq(populations.kind, kind)))
    .orderBy(populations.name);
  return rows.map((r) => r.id);
}
