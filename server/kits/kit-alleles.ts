import { asc, eq } from 'drizzle-orm';
import { compareAlleles } from '../../core/alleles';
import type { KitAlleles, KitThresholds } from '../../core/schemas/kit-bins';
import type { Db } from '../db/database';
import { chemistryMarkers, kitAlleles, kitMarkers, kitThresholds, markers } from '../db/schema';

/** A kit's bins per marker (in the kit's marker order; markers outside its configuration last) and its thresholds. */
export async function readKitAlleles(db: Db, chemistry: { id: string; version: number }): Promise<KitAlleles> {
  const [markerRows, binRows, thresholds, order] = await Promise.all([
    db.select({ markerId: kitMarkers.markerId, marker: markers.name, dye: kitMarkers.dye, repeatLength: kitMarkers.repeatLength, sizeOffset: kitMarkers.sizeOffset }).from(kitMarkers).innerJoin(markers, eq(markers.id, kitMarkers.markerId)).where(eq(kitMarkers.chemistryId, chemistry.id)),
    db.select({ markerId: kitAlleles.markerId, allele: kitAlleles.allele, size: kitAlleles.size, virtual: kitAlleles.virtual }).from(kitAlleles).where(eq(kitAlleles.chemistryId, chemistry.id)),
    readKitThresholds(db, chemistry.id),
    db.select({ markerId: chemistryMarkers.markerId }).from(chemistryMarkers).where(eq(chemistryMarkers.chemistryId, chemistry.id)).orderBy(asc(chemistryMarkers.position)),
  ]);
  const rank = new Map(order.map((o, i) => [o.markerId, i]));
  const bins = new Map<string, typeof binRows>();
  for (const b of binRows) bins.set(b.markerId, [...(bins.get(b.markerId) ?? []), b]);
  const sorted = [...markerRows].sort((a, b) => (rank.get(a.markerId) ?? order.length) - (rank.get(b.markerId) ?? order.length));
  return {
    chemistryId: chemistry.id,
    version: chemistry.version,
    markers: sorted.map((m) => ({
      ...m,
      // real holds ~7 digits: read back as the two decimals kit.txt gives.
      sizeOffset: Math.round(m.sizeOffset * 100) / 100,
      alleles: (bins.get(m.markerId) ?? []).map((b) => ({ allele: b.allele, size: Math.round(b.size * 100) / 100, virtual: b.virtual })).sort((a, b) => compareAlleles(a.allele, b.allele)),
    })),
    thresholds,
  };
}

/** A kit's analytical thresholds: the kit's (dye '') and each dye's. */
export async function readKitThresholds(db: Db, chemistryId: string): Promise<KitThresholds> {
  const rows = await db.select().from(kitThresholds).where(eq(kitThresholds.chemistryId, chemistryId));
  return { kit: rows.find((r) => r.dye === '')?.rfu ?? null, dyes: Object.fromEntries(rows.filter((r) => r.dye !== '').map((r) => [r.dye, r.rfu])) };
}

/** Replaces a kit's analytical thresholds (inside the caller's transaction). */
export async function writeKitThresholds(db: Db, chemistryId: string, thresholds: KitThresholds): Promise<void> {
  await db.delete(kitThresholds).where(eq(kitThresholds.chemistryId, chemistryId));
  const rows = [...(thresholds.kit === null ? [] : [{ chemistryId, dye: '', rfu: thresholds.kit }]), ...Object.entries(thresholds.dyes).map(([dye, rfu]) => ({ chemistryId, dye: dye.toLowerCase(), rfu }))];
  if (rows.length > 0) await db.insert(kitThresholds).values(rows);
}
