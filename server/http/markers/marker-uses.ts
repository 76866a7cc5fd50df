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
 * byte 0 is 128 when codes take two bytes, plus the marker count; then the codes) is read, not its
 * alleles. A cheap byte search for the code's low byte goes first.
 */
function holdsMarkerCode(code: number) {
  const g = profiles.genotype;
  const m = sql`(get_byte(${g}, 0) & 127)`;
  const wide = sql`(get_byte(${g}, 0) >= 128)`;
  return sql`(position(decode(lpad(to_hex(${code & 0xff}::int), 2, '0'), 'hex') in substring(${g} from 2 for ${m} * 2)) > 0
    and exists (select 1 from generate_series(0, ${m} - 1) as i
      where case when ${wide} then get_byte(${g}, 1 + 2 * i) * 256 + get_byte(${g}, 2 + 2 * i) else get_byte(${g}, 1 + i) end = ${code}::int))`;
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
