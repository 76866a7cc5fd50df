import { and, count, eq, inArray } from 'drizzle-orm';
import type { Family } from '../../../core/schemas/families';
import type { Db } from '../../db/database';
import { analyses, families, hits, profiles } from '../../db/schema';
import type { AuthenticatedUser } from '../../identity/load-principal';
import type { FamilyRow } from '../../missing-persons/load-family';
import { NotFound } from '../errors';
import { inReachableOrganizations } from '../tenancy';

/** Families as the API returns them: the analysis's name and tested person, each relative's sample name and status, the hits found. */
export async function toFamilies(db: Db, rows: readonly FamilyRow[]): Promise<Family[]> {
  if (rows.length === 0) return [];
  const analysisRows = await db.select({ id: analyses.id, name: analyses.name, pedigree: analyses.pedigree }).from(analyses).where(inArray(analyses.id, [...new Set(rows.map((r) => r.analysisId))]));
  const ids = [...new Set(rows.flatMap((r) => r.relatives.map((x) => x.profileId)))];
  const profileRows = ids.length === 0 ? [] : await db.select({ id: profiles.id, name: profiles.profileId, status: profiles.status }).from(profiles).where(inArray(profiles.id, ids));
  const hitCounts = await db.select({ familyId: hits.familyId, n: count() }).from(hits).where(inArray(hits.familyId, rows.map((r) => r.id))).groupBy(hits.familyId);
  return rows.map((row) => {
    const analysis = analysisRows.find((a) => a.id === row.analysisId);
    return {
      id: row.id,
      caseId: row.caseId,
      organizationId: row.organizationId,
      name: row.name,
      analysisId: row.analysisId,
      analysisName: analysis?.name ?? '',
      missingPersonRole: analysis?.pedigree?.target ?? '',
      relatives: row.relatives.map((r) => {
        const p = profileRows.find((x) => x.id === r.profileId);
        return { role: r.role, profileId: r.profileId, sampleName: p?.name ?? null, status: p?.status ?? null };
      }),
      populationIds: row.populationIds,
      threshold: row.threshold,
      status: row.status as Family['status'],
      activatedAt: row.activatedAt?.toISOString() ?? null,
      searchedAt: row.searchedAt?.toISOString() ?? null,
      hitCount: hitCounts.find((h) => h.familyId === row.id)?.n ?? 0,
      version: row.version,
    };
  });
}

/** One family the user may reach; another organization's answers 404. */
export async function findVisibleFamily(db: Db, user: AuthenticatedUser, id: string): Promise<FamilyRow> {
  const [row] = await db.select().from(families).where(and(eq(families.id, id), inReachableOrganizations(families.organizationId, user)));
  if (!row) throw new NotFound(`No family with id ${id}`);
  return row;
}
