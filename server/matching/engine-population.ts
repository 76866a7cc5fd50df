import { eq } from 'drizzle-orm';
import type { Db } from '../db/database';
import { markers, populationAlleles, populationHaplotypes, populationMarkers } from '../db/schema';
import type { HaplotypeEntry } from '../genetics/statistics';
import type { MarkerFrequencies, PopulationFrequencies } from '../genetics/types';
import type { populations } from '../db/schema';
import { markerFrequencies, populationFrequencies } from './search-input-shapes';

export type PopulationRow = typeof populations.$inferSelect;

/** A population's statistics in the engine's shapes, markers by name: frequencies (autosomal) and the haplotype table (Y-STR). */
export async function loadEnginePopulation(db: Db, population: PopulationRow): Promise<{ frequencies: PopulationFrequencies; haplotypes: HaplotypeEntry[] }> {
  const names = new Map((await db.select({ id: markers.id, name: markers.name }).from(markers)).map((m) => [m.id, m.name]));
  const byMarker = new Map<string, { frequencies: Map<string, number>; sampleSize: number | null }>();
  const entry = (markerId: string) => {
    const name = names.get(markerId) ?? markerId;
    if (!byMarker.has(name)) byMarker.set(name, markerFrequencies(new Map<string, number>(), null));
    return byMarker.get(name)!;
  };
  for (const row of await db.select().from(populationMarkers).where(eq(populationMarkers.populationId, population.id))) entry(row.markerId).sampleSize = row.sampleSize;
  for (const row of await db.select().from(populationAlleles).where(eq(populationAlleles.populationId, population.id))) entry(row.markerId).frequencies.set(row.allele, row.frequency);
  const haplotypes = (await db.select().from(populationHaplotypes).where(eq(populationHaplotypes.populationId, population.id))).map((h) => ({
    count: h.count,
    values: new Map(Object.entries(h.values).map(([markerId, values]) => [names.get(markerId) ?? markerId, values])),
  }));
  return {
    frequencies: populationFrequencies(population.name, population.minimumAlleleFrequency, byMarker as Map<string, MarkerFrequencies>),
    haplotypes,
  };
}
