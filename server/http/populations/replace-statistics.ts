import { eq } from 'drizzle-orm';
import type { AlleleFrequency, HaplotypeRow } from '../../../core/schemas/populations';
import type { Db } from '../../db/database';
import { populationAlleles, populationHaplotypes, populationMarkers, populations } from '../../db/schema';
import { updateVersioned } from '../versioned';
import type { PopulationRow } from './visibility';

/** What a population's statistics consist of once saved (a Y-STR population has markers without alleles). */
export interface StoredStatistics {
  markers: { markerId: string; sampleSize: number | null; alleles: AlleleFrequency[] }[];
  haplotypes: HaplotypeRow[];
}

/** Rows per INSERT: well under PostgreSQL's 65535 bind parameters, few round trips for a large table. */
const BATCH = 1000;

async function insertInBatches<T>(rows: readonly T[], insert: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) await insert(rows.slice(i, i + BATCH));
}

/**
 * Replaces a population's statistics in one transaction: the version check (409 when stale), the
 * removal of the old markers, alleles and haplotypes, and the new rows either all happen or none
 * do, so a failure part-way leaves the old statistics intact.
 */
export async function replaceStatistics(
  db: Db,
  populationId: string,
  version: number,
  statistics: StoredStatistics,
  meta: { source: string; uploadedAt: Date },
): Promise<PopulationRow> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const row = await updateVersioned(t, populations, populationId, version, { source: meta.source, statisticsUploadedAt: meta.uploadedAt }, 'population');
    await t.delete(populationAlleles).where(eq(populationAlleles.populationId, populationId));
    await t.delete(populationHaplotypes).where(eq(populationHaplotypes.populationId, populationId));
    await t.delete(populationMarkers).where(eq(populationMarkers.populationId, populationId));
    await insertInBatches(
      statistics.markers.map((m) => ({ populationId, markerId: m.markerId, sampleSize: m.sampleSize })),
      (batch) => t.insert(populationMarkers).values(batch),
    );
    await insertInBatches(
      statistics.markers.flatMap((m) => m.alleles.map((a) => ({ populationId, markerId: m.markerId, allele: a.allele, frequency: a.frequency }))),
      (batch) => t.insert(populationAlleles).values(batch),
    );
    await insertInBatches(
      statistics.haplotypes.map((h) => ({ populationId, values: h.values, count: h.count })),
      (batch) => t.insert(populationHaplotypes).values(batch),
    );
    return row;
  });
}
