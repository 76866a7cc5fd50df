import { asc, eq, inArray } from 'drizzle-orm';
import { normaliseMarkerAlleles, validateMarkerAlleles } from '../../../core/alleles';
import { MARKER_KIND_LABELS } from '../../../core/schemas/markers';
import { MIXTURE_SAMPLE_TYPES, type MarkerValue, type MarkerValueInput, type ProfileKind } from '../../../core/schemas/profiles';
import type { Db } from '../../db/database';
import { decodeGenotype, packGenotype } from '../../db/genotype-codec';
import { chemistryMarkers, markers, profiles } from '../../db/schema';
import { BadRequest } from '../errors';

/** What the allele rules need to know of a marker. */
export interface MarkerInfo {
  id: string;
  name: string;
  kind: ProfileKind;
  multiCopy: boolean;
}

/** A field error as the forms show it beside the field (path into the request body). */
export interface FieldError {
  path: string;
  message: string;
}

/** A marker value ready to store: canonical alleles and its place in the chemistry's order. */
export interface StoredMarkerValue {
  markerId: string;
  alleles: string[];
  position: number;
}

/** Markers by id, for the ids given. */
export async function loadMarkers(db: Db, ids: readonly string[]): Promise<Map<string, MarkerInfo>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: markers.id, name: markers.name, kind: markers.kind, multiCopy: markers.multiCopy }).from(markers).where(inArray(markers.id, [...new Set(ids)]));
  return new Map(rows.map((m) => [m.id, { ...m, kind: m.kind as ProfileKind }]));
}

/** A chemistry's marker order: marker id → position. */
export async function chemistryOrder(db: Db, chemistryId: string): Promise<Map<string, number>> {
  const rows = await db.select({ markerId: chemistryMarkers.markerId, position: chemistryMarkers.position }).from(chemistryMarkers).where(eq(chemistryMarkers.chemistryId, chemistryId)).orderBy(asc(chemistryMarkers.position));
  return new Map(rows.map((r, i) => [r.markerId, i]));
}

/**
 * Checks marker values against the allele rules (core/alleles, GENETICS.md) and the profile's kind,
 * and puts them in the chemistry's order; markers outside the kit follow it. Empty markers are
 * dropped (not typed). Returns the values to store, or every problem with its field path.
 */
export function checkMarkerValues(
  values: readonly MarkerValueInput[],
  context: { kind: ProfileKind; sampleType: string; markers: ReadonlyMap<string, MarkerInfo>; order: ReadonlyMap<string, number>; pathPrefix?: string },
): { values: StoredMarkerValue[]; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const out: StoredMarkerValue[] = [];
  const seen = new Set<string>();
  const mixture = MIXTURE_SAMPLE_TYPES.has(context.sampleType);
  values.forEach((value, index) => {
    const path = `${context.pathPrefix ?? ''}/markerValues/${index}`;
    const marker = context.markers.get(value.markerId);
    if (!marker) {
      errors.push({ path: `${path}/markerId`, message: `Marker ${value.markerId} is invalid` });
      return;
    }
    if (seen.has(marker.id)) {
      errors.push({ path: `${path}/markerId`, message: `${marker.name} is entered twice` });
      return;
    }
    seen.add(marker.id);
    if (value.alleles.length === 0) return;
    // A kit may amplify markers of the other kind (GlobalFiler: DYS391, Yindel); those belong to its profiles too.
    if (marker.kind !== context.kind && !context.order.has(marker.id)) {
      errors.push({ path: `${path}/markerId`, message: `${marker.name} is a ${MARKER_KIND_LABELS[marker.kind]} marker; this is a ${MARKER_KIND_LABELS[context.kind]} profile` });
      return;
    }
    const problems = validateMarkerAlleles(value.alleles, marker, { mixture });
    for (const message of problems) errors.push({ path: `${path}/alleles`, message });
    if (problems.length === 0) out.push({ markerId: marker.id, alleles: normaliseMarkerAlleles(value.alleles), position: 0 });
  });
  const extra = context.order.size;
  // Kit markers in kit order, then the others in the order given.
  const ranked = out.map((v, i) => ({ v, rank: context.order.get(v.markerId) ?? extra + i }));
  ranked.sort((a, b) => a.rank - b.rank);
  return { values: ranked.map(({ v }, position) => ({ ...v, position })), errors };
}

/** Throws the 400 a form shows field by field when marker values have problems. */
export function assertNoMarkerErrors(errors: readonly FieldError[]): void {
  if (errors.length === 0) return;
  const first = errors[0]!.message;
  throw new BadRequest(errors.length === 1 ? first : `${first} (and ${errors.length - 1} more problem${errors.length === 2 ? '' : 's'})`, errors);
}

/** Markers' codes (markers.code) by id, for the ids given. */
export async function markerCodes(db: Db, ids: readonly string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: markers.id, code: markers.code }).from(markers).where(inArray(markers.id, [...new Set(ids)]));
  return new Map(rows.map((m) => [m.id, m.code]));
}

/** Marker values packed for profiles.genotype (db/genotype-codec.ts), in their `position` order. */
export function packMarkerValues(values: readonly StoredMarkerValue[], codes: ReadonlyMap<string, number>): Uint8Array {
  return packGenotype([...values].sort((a, b) => a.position - b.position), (id) => codes.get(id));
}

/** Replaces a profile's marker values. */
export async function writeMarkerValues(db: Db, profileId: string, values: readonly StoredMarkerValue[]): Promise<void> {
  const codes = await markerCodes(db, values.map((v) => v.markerId));
  await db.update(profiles).set({ genotype: Buffer.from(packMarkerValues(values, codes)) }).where(eq(profiles.id, profileId));
}

/** Markers by code, for the codes given: what a packed genotype names. */
export async function markersByCode(db: Db, codes: readonly number[]): Promise<Map<number, { id: string; name: string }>> {
  if (codes.length === 0) return new Map();
  const rows = await db.select({ id: markers.id, name: markers.name, code: markers.code }).from(markers).where(inArray(markers.code, [...new Set(codes)]));
  return new Map(rows.map((m) => [m.code, { id: m.id, name: m.name }]));
}

/** A profile's marker values with marker names, in stored order. */
export async function readMarkerValues(db: Db, profileId: string): Promise<MarkerValue[]> {
  const [row] = await db.select({ genotype: profiles.genotype }).from(profiles).where(eq(profiles.id, profileId));
  if (!row) return [];
  const entries = decodeGenotype(row.genotype);
  const byCode = await markersByCode(db, entries.map((e) => e.code));
  // A marker cannot be deleted while a profile holds it (marker-uses.ts); one that is gone is skipped.
  return entries.flatMap((e) => {
    const marker = byCode.get(e.code);
    return marker ? [{ markerId: marker.id, marker: marker.name, alleles: [...e.alleles] }] : [];
  });
}

/** Checks new marker values for a stored profile (its kind, sample type and kit order), throwing the field errors. */
export async function checkProfileMarkerValues(
  db: Db,
  profile: { kind: string; sampleType: string; chemistryId: string },
  values: readonly MarkerValueInput[],
): Promise<StoredMarkerValue[]> {
  const checked = checkMarkerValues(values, {
    kind: profile.kind as ProfileKind,
    sampleType: profile.sampleType,
    markers: await loadMarkers(db, values.map((m) => m.markerId)),
    order: await chemistryOrder(db, profile.chemistryId),
  });
  assertNoMarkerErrors(checked.errors);
  return checked.values;
}
