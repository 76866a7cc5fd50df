import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../database';
import { chemistries, chemistryMarkers, kitMarkers, markers } from '../../schema';
import { KIT_BINS } from '../reference/kit-bins';
import type { KitBins } from '../reference/kit-bins-types';

/**
 * Issue 31: every seeded kit's allele bins, dyes and sizing (strvalidator kit.txt) as reference data. A kit Locus does
 * not have yet is created with kit.txt's markers in kit.txt's order (dye, then size); an existing kit of that name and
 * kind (the five of issue 3, or one a laboratory made) gets the bins. Idempotent: a kit that has bins keeps them, as an
 * administrator may have corrected them. Kits naming a marker the catalogue lacks are skipped. Returns the kits filled.
 */
export async function addKitBins(db: Db): Promise<number> {
  const catalogue = new Map((await db.select({ id: markers.id, name: markers.name }).from(markers)).map((m) => [m.name, m.id]));
  let filled = 0;
  for (const kit of KIT_BINS) {
    const ids = kit.markers.map((m) => catalogue.get(m.marker));
    if (ids.some((id) => id === undefined)) continue;
    const chemistryId = await kitChemistry(db, kit, ids as string[]);
    const [has] = await db.select({ n: sql<number>`count(*)::int` }).from(kitMarkers).where(eq(kitMarkers.chemistryId, chemistryId));
    if ((has?.n ?? 0) > 0) continue;
    await insertBins(db, chemistryId, kit, ids as string[]);
    filled++;
  }
  return filled;
}

/** The chemistry of the kit's name and kind, created with the kit's markers when there is none. */
async function kitChemistry(db: Db, kit: KitBins, markerIds: readonly string[]): Promise<string> {
  const [known] = await db.select({ id: chemistries.id }).from(chemistries).where(and(eq(chemistries.kind, kit.kind), sql`lower(${chemistries.name}) = lower(${kit.name})`));
  if (known) return known.id;
  const [created] = await db.insert(chemistries).values({ name: kit.name, kind: kit.kind }).returning({ id: chemistries.id });
  await db.insert(chemistryMarkers).values(markerIds.map((markerId, position) => ({ chemistryId: created!.id, markerId, position })));
  return created!.id;
}

/** A kit's markers and bins in two statements (about 400 bins a kit, passed as one JSON parameter). */
async function insertBins(db: Db, chemistryId: string, kit: KitBins, markerIds: readonly string[]): Promise<void> {
  await db.insert(kitMarkers).values(kit.markers.map((m, i) => ({ chemistryId, markerId: markerIds[i]!, dye: m.dye, repeatLength: m.repeat, sizeOffset: m.offset })));
  const bins = kit.markers.flatMap((m, i) =>
    m.bins.split(',').map((bin) => {
      const [allele, size] = bin.split(':') as [string, string];
      return { m: markerIds[i], a: allele, s: Number(size.replace('v', '')), v: size.endsWith('v') };
    }),
  );
  await db.execute(sql`
    insert into kit_alleles (chemistry_id, marker_id, allele, size, virtual)
    select ${chemistryId}::uuid, b.m, b.a, b.s, b.v from jsonb_to_recordset(${JSON.stringify(bins)}::jsonb) as b(m uuid, a text, s real, v boolean)
    on conflict do nothing`);
}
