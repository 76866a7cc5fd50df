import type { Replicate } from '../../../core/schemas/replicates';
import type { Db } from '../../db/database';
import { loadKitSizing } from '../../kits/kit-sizing';
import { unsizedNote } from '../../kits/peak-warnings';
import { markersByCode } from './marker-values';
import { readStoredReplicates } from './replicate-values';

/**
 * A profile's replicates as the profile read returns them (issue 31): a size the file omitted filled from the kit
 * (marked `kit`), a height under the kit's analytical threshold flagged, a marker the kit cannot size noted.
 */
export async function readReplicates(db: Db, profileId: string, kit: { id: string; name: string }): Promise<Replicate[]> {
  const stored = await readStoredReplicates(db, profileId);
  if (stored.length === 0) return [];
  const [sizing, byCode] = await Promise.all([loadKitSizing(db, kit.id), markersByCode(db, stored.flatMap((r) => r.markers.map((m) => m.code)))]);
  return stored.map((r) => ({
    name: r.name,
    markers: r.markers.flatMap((m) => {
      const marker = byCode.get(m.code);
      if (!marker) return [];
      const threshold = sizing.thresholdOf(marker.id);
      const peaks = m.peaks.map((p) => {
        const kitSize = p.size === null ? sizing.sizeOf(marker.id, p.allele) : null;
        const size = p.size ?? kitSize;
        return { allele: p.allele, height: p.height, size, sizeSource: p.size !== null ? ('file' as const) : kitSize !== null ? ('kit' as const) : ('none' as const), belowThreshold: threshold !== null && p.height !== null && p.height < threshold };
      });
      const note = unsizedNote(sizing, kit.name, marker, peaks.filter((p) => p.sizeSource === 'none').map((p) => p.allele));
      return [{ markerId: marker.id, marker: marker.name, peaks, ...(note ? { note } : {}) }];
    }),
  }));
}
