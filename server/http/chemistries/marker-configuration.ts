import { eq, inArray } from 'drizzle-orm';
import type { ChemistryKind } from '../../../core/schemas/chemistries';
import { MARKER_KIND_LABELS } from '../../../core/schemas/markers';
import type { Db } from '../../db/database';
import { chemistryMarkers, markers } from '../../db/schema';
import { BadRequest } from '../errors';

/**
 * Checks an ordered marker list for a chemistry of `kind`: every marker exists and appears once,
 * and a Y-STR chemistry holds only Y-STR markers. An autosomal kit may hold any marker: kits
 * amplify Amelogenin and some Y markers alongside the autosomal loci (GlobalFiler: Yindel, DYS391;
 * Fusion 6C: DYS391, DYS576, DYS570). Runs inside the saving transaction and share-locks the
 * markers, so none changes kind or disappears before the chemistry is stored.
 */
export async function assertMarkerConfiguration(tx: Db, kind: ChemistryKind, markerIds: readonly string[]): Promise<void> {
  const rows = await tx
    .select({ id: markers.id, name: markers.name, kind: markers.kind })
    .from(markers)
    .where(inArray(markers.id, [...markerIds]))
    .for('share');
  const byId = new Map(rows.map((r) => [r.id, r]));
  const seen = new Set<string>();
  for (const id of markerIds) {
    const marker = byId.get(id);
    if (!marker) throw new BadRequest(`No marker with id ${id}`);
    if (seen.has(id)) throw new BadRequest(`Marker ${marker.name} is listed twice`);
    seen.add(id);
    if (kind === 'YStr' && marker.kind !== 'YStr') {
      throw new BadRequest(`Marker ${marker.name} is ${MARKER_KIND_LABELS[marker.kind as ChemistryKind].toLowerCase()}; a Y-STR chemistry holds only Y-STR markers`);
    }
  }
}

/** Stores the marker configuration in the given order, replacing the previous one. */
export async function replaceMarkerConfiguration(tx: Db, chemistryId: string, markerIds: readonly string[]): Promise<void> {
  await tx.delete(chemistryMarkers).where(eq(chemistryMarkers.chemistryId, chemistryId));
  await tx.insert(chemistryMarkers).values(markerIds.map((markerId, position) => ({ chemistryId, markerId, position })));
}
