import { asc, eq, inArray } from 'drizzle-orm';
import type { Chemistry } from '../../../core/schemas/chemistries';
import type { Db } from '../../db/database';
import { chemistries, chemistryMarkers, markers } from '../../db/schema';

type ChemistryRow = typeof chemistries.$inferSelect;

/** Chemistries as the API returns them: each with its markers in position order and their count. */
export async function withMarkers(db: Db, rows: readonly ChemistryRow[]): Promise<Chemistry[]> {
  if (rows.length === 0) return [];
  const entries = await db
    .select({ chemistryId: chemistryMarkers.chemistryId, id: markers.id, name: markers.name })
    .from(chemistryMarkers)
    .innerJoin(markers, eq(markers.id, chemistryMarkers.markerId))
    .where(inArray(chemistryMarkers.chemistryId, rows.map((r) => r.id)))
    .orderBy(asc(chemistryMarkers.position));
  return rows.map((row) => {
    const list = entries.filter((e) => e.chemistryId === row.id).map(({ id, name }) => ({ id, name }));
    return {
      id: row.id,
      name: row.name,
      kind: row.kind as Chemistry['kind'],
      version: row.version,
      createdAt: row.createdAt.toISOString(),
      markers: list,
      markerCount: list.length,
    };
  });
}

/** One chemistry with its markers. */
export async function chemistryView(db: Db, row: ChemistryRow): Promise<Chemistry> {
  return (await withMarkers(db, [row]))[0]!;
}
