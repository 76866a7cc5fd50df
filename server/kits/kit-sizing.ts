import { eq } from 'drizzle-orm';
import { parseAllele } from '../../core/alleles';
import type { Db } from '../db/database';
import { kitAlleles, kitMarkers, kitThresholds } from '../db/schema';

/** What a profile read needs of its kit (issue 31): allele sizes, each marker's dye and the analytical thresholds. */
export interface KitSizing {
  /** The allele's fragment size in bp: the kit's bin, else repeat length × repeats + offset; null when the kit lacks the marker or the allele is no repeat number. */
  sizeOf(markerId: string, allele: string): number | null;
  /** Whether the kit's allele table knows the marker at all. */
  hasMarker(markerId: string): boolean;
  /** The analytical threshold (RFU) for the marker: its dye's, else the kit's; null when none is set. */
  thresholdOf(markerId: string): number | null;
}

/**
 * The size of an allele the kit has no bin for, from its repeat count: repeat length × whole repeats + partial
 * bases + offset (strvalidator kit.txt `Repeat`, `Offset`; GENETICS.md "Continuous model").
 */
export function sizeFromRepeats(allele: string, repeatLength: number, offset: number): number | null {
  const parsed = parseAllele(allele);
  if (parsed.kind !== 'integer' && parsed.kind !== 'microvariant') return null;
  const [whole = '0', part = '0'] = parsed.text.split('.');
  return Math.round((Number(whole) * repeatLength + Number(part) + offset) * 100) / 100;
}

/** Loads a kit's sizing and thresholds (three short reads by the kit's primary keys). */
export async function loadKitSizing(db: Db, chemistryId: string): Promise<KitSizing> {
  const [markerRows, alleleRows, thresholdRows] = await Promise.all([
    db.select().from(kitMarkers).where(eq(kitMarkers.chemistryId, chemistryId)),
    db.select({ markerId: kitAlleles.markerId, allele: kitAlleles.allele, size: kitAlleles.size }).from(kitAlleles).where(eq(kitAlleles.chemistryId, chemistryId)),
    db.select().from(kitThresholds).where(eq(kitThresholds.chemistryId, chemistryId)),
  ]);
  const markers = new Map(markerRows.map((m) => [m.markerId, m]));
  const bins = new Map(alleleRows.map((a) => [`${a.markerId} ${a.allele}`, Math.round(a.size * 100) / 100]));
  const thresholds = new Map(thresholdRows.map((t) => [t.dye, t.rfu]));
  return {
    sizeOf(markerId, allele) {
      const bin = bins.get(`${markerId} ${allele}`);
      if (bin !== undefined) return bin;
      const marker = markers.get(markerId);
      return marker ? sizeFromRepeats(allele, marker.repeatLength, marker.sizeOffset) : null;
    },
    hasMarker: (markerId) => markers.has(markerId),
    thresholdOf(markerId) {
      const dye = markers.get(markerId)?.dye;
      return (dye !== undefined ? thresholds.get(dye) : undefined) ?? thresholds.get('') ?? null;
    },
  };
}
