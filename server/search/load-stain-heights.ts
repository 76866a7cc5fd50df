import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/database';
import { decodeGenotype } from '../db/genotype-codec';
import { decodePeaks } from '../db/peaks-codec';
import { kitAlleles, kitMarkers, kitThresholds, markers, profileReplicates } from '../db/schema';
import type { StainHeights } from '../matching/types';

/**
 * A stain's replicates with their peak heights (profile_replicates) and its kit's analytical thresholds per marker (a
 * dye's own, else the kit's), as the continuous search takes them; null when no replicate holds a height (issue 31:
 * the qualitative search stays for stains without heights).
 */
export async function loadStainHeights(db: Db, profileId: string, chemistryId: string): Promise<StainHeights | null> {
  const rows = await db.select({ genotype: profileReplicates.genotype, peaks: profileReplicates.peaks }).from(profileReplicates).where(eq(profileReplicates.profileId, profileId)).orderBy(asc(profileReplicates.position));
  if (rows.length === 0) return null;
  const names = new Map((await db.select({ code: markers.code, name: markers.name }).from(markers)).map((m) => [m.code, m.name]));
  const replicates = rows.map((row) => {
    const measures = decodePeaks(row.peaks);
    let at = 0;
    return decodeGenotype(row.genotype).map(({ code, alleles }) => ({
      marker: names.get(code) ?? `#${code}`,
      // A peak without a height cannot be weighed by heights: it is left out, its marker kept (typed, no peak).
      peaks: alleles.flatMap((allele) => {
        const { height, size } = measures[at++]!;
        return height === null ? [] : [{ allele, height, ...(size === null ? {} : { size }) }];
      }),
    }));
  });
  if (!replicates.some((r) => r.some((m) => m.peaks.length > 0))) return null;
  const thresholds = await db.select({ dye: kitThresholds.dye, rfu: kitThresholds.rfu }).from(kitThresholds).where(eq(kitThresholds.chemistryId, chemistryId));
  const kit = thresholds.find((t) => t.dye === '')?.rfu ?? null;
  const byDye = new Map(thresholds.filter((t) => t.dye !== '').map((t) => [t.dye, t.rfu]));
  const dyes = byDye.size === 0 ? [] : await db.select({ name: markers.name, dye: kitMarkers.dye }).from(kitMarkers).innerJoin(markers, eq(markers.id, kitMarkers.markerId)).where(eq(kitMarkers.chemistryId, chemistryId));
  const markerThresholds = new Map(dyes.flatMap((d) => (byDye.has(d.dye) ? [[d.name, byDye.get(d.dye)!] as const] : [])));
  return { replicates, analyticalThreshold: kit, markerThresholds, fragmentSizes: await kitFragmentSizes(db, chemistryId) };
}

/**
 * The kit's allele bins per marker name and the longest (the size EuroForMix gives the unseen alleles), as the
 * calculator sends them: without them degradation cannot weigh an unknown's allele the stain does not show.
 */
async function kitFragmentSizes(db: Db, chemistryId: string): Promise<StainHeights['fragmentSizes']> {
  const rows = await db.select({ marker: markers.name, allele: kitAlleles.allele, size: kitAlleles.size }).from(kitAlleles).innerJoin(markers, eq(markers.id, kitAlleles.markerId)).where(eq(kitAlleles.chemistryId, chemistryId));
  const sizes = new Map<string, { alleles: Map<string, number>; longest: number | undefined }>();
  for (const r of rows) {
    const m = sizes.get(r.marker) ?? sizes.set(r.marker, { alleles: new Map(), longest: undefined }).get(r.marker)!;
    const size = Math.round(r.size * 100) / 100;
    m.alleles.set(r.allele, size);
    m.longest = Math.max(m.longest ?? size, size);
  }
  return sizes;
}
