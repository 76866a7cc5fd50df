import type { ImportedReplicate } from '../../../core/schemas/replicates';
import type { Db } from '../../db/database';
import { chemistries } from '../../db/schema';
import { findOr404 } from '../../db/versioned';
import { loadKitSizing } from '../../kits/kit-sizing';
import { peakWarnings } from '../../kits/peak-warnings';

/** A preview row's name and replicates, as the warnings need them. */
interface RowPeaks {
  profileId: string;
  replicates: readonly ImportedReplicate[];
}

/**
 * Each preview row's peaks weighed against the kit chosen for the add (issue 31): heights under its analytical
 * threshold and alleles it cannot size, one message each, in the row's order. A run is named when the row has
 * several or its name is not the sample's. Without a kit, no warnings (the kit decides both).
 */
export async function rowWarnings(db: Db, chemistryId: string | undefined, rows: readonly RowPeaks[]): Promise<string[][]> {
  if (!chemistryId || rows.every((r) => r.replicates.length === 0)) return rows.map(() => []);
  const kit = await findOr404(db, chemistries, chemistryId, 'chemistry');
  const sizing = await loadKitSizing(db, kit.id);
  return rows.map((row) =>
    row.replicates.flatMap((r) => {
      const run = row.replicates.length > 1 || (r.name !== '' && r.name !== row.profileId) ? `, run ${r.name}` : '';
      return r.markers.flatMap((m) => peakWarnings(sizing, kit.name, { id: m.markerId, name: m.marker }, m.peaks, `${m.marker} of ${row.profileId}${run}`));
    }),
  );
}
