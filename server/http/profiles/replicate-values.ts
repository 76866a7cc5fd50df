import { asc, eq } from 'drizzle-orm';
import { parseAllele } from '../../../core/alleles';
import { MIXTURE_SAMPLE_TYPES } from '../../../core/schemas/profiles';
import type { ReplicateInput } from '../../../core/schemas/replicates';
import type { Db } from '../../db/database';
import { decodeGenotype, encodeGenotype } from '../../db/genotype-codec';
import { decodePeaks, encodePeaks, type PeakMeasures } from '../../db/peaks-codec';
import { profileReplicates } from '../../db/schema';
import { BadRequest } from '../errors';
import { assertNoMarkerErrors, loadMarkers, markerCodes, markersByCode, type FieldError, type StoredMarkerValue } from './marker-values';

// Issue 31: a profile's replicates with peak heights, stored beside the profile (profile_replicates), never in
// profiles.genotype, so the search index (which reads only that column) does not grow.

/** A replicate ready to store: its name and, in the profile's marker order, each marker's peaks. */
export interface StoredReplicate {
  name: string;
  markers: { markerId: string; peaks: { allele: string; height: number | null; size: number | null }[] }[];
}

/**
 * Checks replicates against the profile's checked marker values: each marker must be one of the profile's, each
 * allele one of that marker's values (the marker values are the union of the replicates). Orders the markers as the
 * profile's. Returns the replicates to store, or every problem with its field path.
 */
export function checkReplicates(replicates: readonly ReplicateInput[], values: readonly StoredMarkerValue[], names: ReadonlyMap<string, string>, pathPrefix = ''): { replicates: StoredReplicate[]; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const byMarker = new Map(values.map((v) => [v.markerId, v]));
  const checked = replicates.map((replicate, r) => {
    const markers = replicate.markers.flatMap((m, i) => {
      const path = `${pathPrefix}/replicates/${r}/markers/${i}`;
      const value = byMarker.get(m.markerId);
      const name = names.get(m.markerId) ?? m.markerId;
      if (!value) {
        if (m.peaks.length > 0) errors.push({ path: `${path}/markerId`, message: `Replicate ${replicate.name || r + 1} has peaks at ${name}, which the profile has no alleles at` });
        return [];
      }
      const peaks = m.peaks.map((p) => ({ ...p, allele: parseAllele(p.allele).text }));
      for (const [j, p] of peaks.entries()) {
        if (!value.alleles.includes(p.allele)) errors.push({ path: `${path}/peaks/${j}/allele`, message: `Replicate ${replicate.name || r + 1}: ${p.allele} at ${name} is not one of the profile's alleles there (${value.alleles.join(', ')})` });
      }
      return [{ markerId: m.markerId, peaks, position: value.position }];
    });
    markers.sort((a, b) => a.position - b.position);
    return { name: replicate.name, markers: markers.map(({ markerId, peaks }) => ({ markerId, peaks })) };
  });
  return { replicates: checked.filter((r) => r.markers.length > 0), errors };
}

/** A replicate packed for profile_replicates: its alleles by genotype-codec.ts, their measures by peaks-codec.ts. */
export function packReplicate(replicate: StoredReplicate, codes: ReadonlyMap<string, number>): { genotype: Uint8Array; peaks: Uint8Array } {
  const entries = replicate.markers.map((m) => {
    const code = codes.get(m.markerId);
    if (code === undefined) throw new Error(`Marker ${m.markerId} has no code`);
    return { code, alleles: m.peaks.map((p) => p.allele) };
  });
  return { genotype: encodeGenotype(entries), peaks: encodePeaks(replicate.markers.flatMap((m) => m.peaks)) };
}

/** Replaces a profile's replicates. */
export async function writeReplicates(db: Db, profileId: string, replicates: readonly StoredReplicate[], codes: ReadonlyMap<string, number>): Promise<void> {
  await db.delete(profileReplicates).where(eq(profileReplicates.profileId, profileId));
  if (replicates.length === 0) return;
  await db.insert(profileReplicates).values(
    replicates.map((r, position) => {
      const packed = packReplicate(r, codes);
      return { profileId, position, name: r.name, genotype: Buffer.from(packed.genotype), peaks: Buffer.from(packed.peaks) };
    }),
  );
}

/** A stored replicate unpacked: markers by code, each allele with its measures, in stored order. */
export interface DecodedReplicate {
  name: string;
  markers: { code: number; peaks: ({ allele: string } & PeakMeasures)[] }[];
}

/** A profile's replicates as stored, in their order. */
export async function readStoredReplicates(db: Db, profileId: string): Promise<DecodedReplicate[]> {
  const rows = await db.select().from(profileReplicates).where(eq(profileReplicates.profileId, profileId)).orderBy(asc(profileReplicates.position));
  return rows.map((row) => {
    const measures = decodePeaks(row.peaks);
    let at = 0;
    return {
      name: row.name,
      markers: decodeGenotype(row.genotype).map((e) => ({ code: e.code, peaks: e.alleles.map((allele) => ({ allele, ...measures[at++]! })) })),
    };
  });
}

/**
 * Peak heights entered by hand belong to a forensic sample type (issue 31: the stain's runs); a reference's are
 * refused rather than kept where nothing reads them. (An import keeps what its file gives.)
 */
export function sampleTypeErrors(replicates: readonly ReplicateInput[], sampleType: string, pathPrefix = ''): FieldError[] {
  if (replicates.length === 0 || MIXTURE_SAMPLE_TYPES.has(sampleType)) return [];
  return [{ path: `${pathPrefix}/replicates`, message: `Peak heights are kept for the forensic sample types (${[...MIXTURE_SAMPLE_TYPES].join('; ')}), not for ${sampleType}` }];
}

/** Checks a stored profile's new replicates against its sample type and checked marker values, throwing the field errors; with the markers' codes to pack them. */
export async function checkProfileReplicates(db: Db, replicates: readonly ReplicateInput[], values: readonly StoredMarkerValue[], sampleType: string): Promise<{ replicates: StoredReplicate[]; codes: Map<string, number> }> {
  const ids = values.map((v) => v.markerId);
  const names = new Map([...(await loadMarkers(db, ids))].map(([id, m]) => [id, m.name]));
  const checked = checkReplicates(replicates, values, names);
  assertNoMarkerErrors([...sampleTypeErrors(replicates, sampleType), ...checked.errors]);
  return { replicates: checked.replicates, codes: await markerCodes(db, ids) };
}

/**
 * A marker edit that sends no replicates keeps the stored ones only while every stored peak still names one of the
 * new marker values: heights of an allele the edit removes would be evidence of nothing (issue 31). Refused with each
 * such peak named, nothing written; null when the profile has no replicates.
 */
export async function checkStoredReplicates(db: Db, profileId: string, values: readonly StoredMarkerValue[]): Promise<void> {
  const stored = await readStoredReplicates(db, profileId);
  if (stored.length === 0) return;
  const byCode = await markersByCode(db, stored.flatMap((r) => r.markers.map((m) => m.code)));
  const inputs: ReplicateInput[] = stored.map((r) => ({ name: r.name, markers: r.markers.flatMap((m) => (byCode.has(m.code) ? [{ markerId: byCode.get(m.code)!.id, peaks: m.peaks }] : [])) }));
  const names = new Map([...byCode.values()].map((m) => [m.id, m.name]));
  const { errors } = checkReplicates(inputs, values, names);
  if (errors.length === 0) return;
  const first = errors[0]!.message;
  throw new BadRequest(
    `The profile's peak heights name alleles this edit removes: send its replicates with the marker values, or edit them too. ${first}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}`,
    errors.map((e) => ({ path: '/replicates', message: e.message })),
  );
}
