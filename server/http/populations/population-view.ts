import { count, eq, inArray, max, min, sum } from 'drizzle-orm';
import type { Population, PopulationKind, StatisticsSummary } from '../../../core/schemas/populations';
import type { Db } from '../../db/database';
import { organizations, populationAlleles, populationHaplotypes, populationMarkers, populationOrganizations } from '../../db/schema';
import type { AuthenticatedUser } from '../../identity/load-principal';
import type { PopulationRow } from './visibility';

const EMPTY_SUMMARY: StatisticsSummary = { markerCount: 0, alleleCount: 0, haplotypeCount: 0, haplotypeTotal: 0, sampleSizeMin: null, sampleSizeMax: null };

/** The summary of each population's stored statistics, in three queries however many populations. */
async function summariesOf(db: Db, ids: readonly string[]): Promise<Map<string, StatisticsSummary>> {
  const summaries = new Map<string, StatisticsSummary>();
  if (ids.length === 0) return summaries;
  const [markerStats, alleleStats, haplotypeStats] = await Promise.all([
    db
      .select({ populationId: populationMarkers.populationId, n: count(), lo: min(populationMarkers.sampleSize), hi: max(populationMarkers.sampleSize) })
      .from(populationMarkers)
      .where(inArray(populationMarkers.populationId, [...ids]))
      .groupBy(populationMarkers.populationId),
    db
      .select({ populationId: populationAlleles.populationId, n: count() })
      .from(populationAlleles)
      .where(inArray(populationAlleles.populationId, [...ids]))
      .groupBy(populationAlleles.populationId),
    db
      .select({ populationId: populationHaplotypes.populationId, n: count(), total: sum(populationHaplotypes.count).mapWith(Number) })
      .from(populationHaplotypes)
      .where(inArray(populationHaplotypes.populationId, [...ids]))
      .groupBy(populationHaplotypes.populationId),
  ]);
  for (const id of ids) {
    const m = markerStats.find((s) => s.populationId === id);
    const a = alleleStats.find((s) => s.populationId === id);
    const h = haplotypeStats.find((s) => s.populationId === id);
    summaries.set(id, {
      ...EMPTY_SUMMARY,
      ...(m ? { markerCount: m.n, sampleSizeMin: m.lo, sampleSizeMax: m.hi } : {}),
      ...(a ? { alleleCount: a.n } : {}),
      ...(h ? { haplotypeCount: h.n, haplotypeTotal: h.total ?? 0 } : {}),
    });
  }
  return summaries;
}

/**
 * Populations as the API returns them, with their organizations and a summary of their statistics,
 * in a fixed number of queries however many rows; `known` summaries (of statistics just saved) are not
 * counted again. A user with organization scope sees only their own organizations among those a
 * population is shared with.
 */
export async function toPopulations(
  db: Db,
  user: AuthenticatedUser,
  rows: readonly PopulationRow[],
  known: ReadonlyMap<string, StatisticsSummary> = new Map(),
): Promise<Population[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [shared, counted] = await Promise.all([
    db
      .select({ populationId: populationOrganizations.populationId, id: organizations.id, name: organizations.name })
      .from(populationOrganizations)
      .innerJoin(organizations, eq(organizations.id, populationOrganizations.organizationId))
      .where(inArray(populationOrganizations.populationId, ids))
      .orderBy(organizations.name),
    summariesOf(db, ids.filter((id) => !known.has(id))),
  ]);
  const reachable = (orgId: string) => user.scope === 'All' || user.organizationIds.includes(orgId);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    kind: row.kind as PopulationKind,
    minimumAlleleFrequency: row.minimumAlleleFrequency,
    source: row.source,
    statisticsUploadedAt: row.statisticsUploadedAt?.toISOString() ?? null,
    synthetic: row.synthetic,
    organizations: shared.filter((o) => o.populationId === row.id && reachable(o.id)).map(({ id, name }) => ({ id, name })),
    statistics: known.get(row.id) ?? counted.get(row.id) ?? EMPTY_SUMMARY,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
  }));
}

/** One population as the API returns it; `summary` when its statistics were just saved (else counted). */
export async function toPopulation(db: Db, user: AuthenticatedUser, row: PopulationRow, summary?: StatisticsSummary): Promise<Population> {
  const [population] = await toPopulations(db, user, [row], summary ? new Map([[row.id, summary]]) : undefined);
  return population!;
}
