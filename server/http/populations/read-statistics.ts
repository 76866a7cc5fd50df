import { asc, count, desc, eq } from 'drizzle-orm';
import { compareAlleles, type MarkerStatistics, type PopulationKind, type PopulationStatistics } from '../../../core/schemas/populations';
import type { Db } from '../../db/database';
import { markers, populationAlleles, populationHaplotypes, populationMarkers } from '../../db/schema';
import type { PopulationRow } from './visibility';

/**
 * A population's stored statistics: every marker with its alleles (ordered as labs read them), and
 * the haplotypes most frequent first, one page of them or all (`page` undefined, for the download).
 */
export async function readStatistics(db: Db, population: PopulationRow, page?: { page: number; pageSize: number }): Promise<PopulationStatistics> {
  const markerRows = await db
    .select({ markerId: populationMarkers.markerId, marker: markers.name, sampleSize: populationMarkers.sampleSize })
    .from(populationMarkers)
    .innerJoin(markers, eq(markers.id, populationMarkers.markerId))
    .where(eq(populationMarkers.populationId, population.id))
    .orderBy(asc(markers.name));
  const alleleRows = await db
    .select({ markerId: populationAlleles.markerId, allele: populationAlleles.allele, frequency: populationAlleles.frequency })
    .from(populationAlleles)
    .where(eq(populationAlleles.populationId, population.id));
  const byMarker: MarkerStatistics[] = markerRows.map((m) => ({
    ...m,
    alleles: alleleRows
      .filter((a) => a.markerId === m.markerId)
      .map(({ allele, frequency }) => ({ allele, frequency }))
      .sort((a, b) => compareAlleles(a.allele, b.allele)),
  }));
  const haplotypeQuery = db
    .select({ values: populationHaplotypes.values, count: populationHaplotypes.count })
    .from(populationHaplotypes)
    .where(eq(populationHaplotypes.populationId, population.id))
    .orderBy(desc(populationHaplotypes.count), asc(populationHaplotypes.id));
  const haplotypes = page ? await haplotypeQuery.limit(page.pageSize).offset(page.page * page.pageSize) : await haplotypeQuery;
  const [total] = await db.select({ n: count() }).from(populationHaplotypes).where(eq(populationHaplotypes.populationId, population.id));
  return {
    kind: population.kind as PopulationKind,
    source: population.source,
    markers: byMarker,
    haplotypes,
    haplotypeCount: total?.n ?? 0,
  };
}
