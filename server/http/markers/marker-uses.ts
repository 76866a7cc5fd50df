import { and, eq, exists, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { chemistries, chemistryMarkers, markers, populationAlleles, populationHaplotypes, populationMarkers, populations, profiles } from '../../db/schema';

/** Names of the chemistries whose marker configuration holds the marker, optionally of one kind only. */
export async function chemistriesUsing(db: Db, markerId: string, kind?: 'Autosomal' | 'YStr'): Promise<string[]> {
  const rows = await db
    .select({ name: chemistries.name })
    .from(chemistryMarkers)
    .innerJoin(chemistries, eq(chemistries.id, chemistryMarkers.chemistryId))
    .where(and(eq(chemistryMarkers.markerId, markerId), kind ? eq(chemistries.kind, kind) : undefined))
    .orderBy(chemistries.name);
  return rows.map((r) => r.name);
}

/** Names of the populations whose statistics mention the marker: sample size, allele frequencies or haplotypes. */
export async function populationsUsing(db: Db, markerId: string): Promise<string[]> {
  const rows = await db
    .select({ name: populations.name })
    .from(populations)
    .where(
      or(
        exists(db.select({ one: sql`1` }).from(populationMarkers).where(and(eq(populationMarkers.populationId, populations.id), eq(populationMarkers.markerId, markerId)))),
        exists(db.select({ one: sql`1` }).from(populationAlleles).where(and(eq(populationAlleles.populationId, populations.id), eq(populationAlleles.markerId, markerId)))),
        // Haplotype values are keyed by marker id (no foreign key), so they are looked up by key.
        exists(
          db
            .select({ one: sql`1` })
            .from(populationHaplotypes)
            .where(and(eq(populationHaplotypes.populationId, populations.id), sql`jsonb_exists(${populationHaplotypes.values}, ${markerId})`)),
        ),
      ),
    )
    .orderBy(populations.name);
  return rows.map((r) => r.name);
}

/**
 * Whether a profile's packed genotype holds the marker of `code`: its code list (db/genotype-codec.ts:
 * byte 0 the count, then two bytes a code) is read, not its alleles. A cheap byte search goes first.
 */
function holdsMarkerCode(code: number) {
  const bytes = sql`decode(lpad(to_hex(${code}::int), 4, '0'), 'hex')`;
  return sql`(position(${bytes} in substring(${profiles.genotype} from 2 for 2 * get_byte(${profiles.genotype}, 0))) > 0
    and exists (select 1 from generate_series(0, get_byte(${profiles.genotype}, 0) - 1) as i
      where get_byte(${profiles.genotype}, 1 + 2 * i) * 256 + get_byte(${profiles.genotype}, 2 + 2 * i) = ${code}::int))`;
}

/** Sample names of the profiles holding a value at the marker (the first few), and how many there are. */
export async function profilesUsingMarker(db: Db, markerId: string): Promise<{ names: string[]; total: number }> {
  const [marker] = await db.select({ code: markers.code }).from(markers).where(eq(markers.id, markerId));
  if (!marker) return { names: [], total: 0 };
  const where = holdsMarkerCode(marker.code);
  const total = await db.$count(profiles, where);
  if (total === 0) return { names: [], total };
  const rows = await db.select({ name: profiles.profileId }).from(profiles).where(where).orderBy(profiles.profileId).limit(5);
  return { names: rows.map((r) => r.name), total };
}
