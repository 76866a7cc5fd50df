import { z } from 'zod';
import { Id } from './common';
import { ListQuery } from './list';
import { MARKER_KINDS } from './markers';
import { requiredText } from './named-record';

/** A chemistry's kind is the kind of profile typed with it: autosomal or Y-STR. */
export const CHEMISTRY_KINDS = MARKER_KINDS;
export type ChemistryKind = (typeof CHEMISTRY_KINDS)[number];

export const NO_MARKERS_MESSAGE = 'Add at least one marker';

/**
 * What the chemistry form sends: the name and the marker configuration, an ordered list of marker
 * ids (spec 3 markerConfiguration; the order is the kit's, e.g. dye channel then size). Which
 * markers may be in it (existing, of an allowed kind, each once) is the server's check.
 */
export const ChemistryInput = z.object({
  name: requiredText(),
  markerIds: z.array(Id).min(1, NO_MARKERS_MESSAGE).max(200, 'At most 200 markers'),
});
export type ChemistryInput = z.infer<typeof ChemistryInput>;

/** One entry of a marker configuration, in position order. */
export const ChemistryMarker = z.object({ id: Id, name: z.string() }).meta({ id: 'ChemistryMarker' });
export type ChemistryMarker = z.infer<typeof ChemistryMarker>;

/** A chemistry with its markers in order (spec 2.7: Name, Markers as count and names). */
export const Chemistry = z
  .object({
    id: Id,
    name: z.string(),
    kind: z.enum(CHEMISTRY_KINDS),
    version: z.number().int(),
    createdAt: z.iso.datetime(),
    markers: z.array(ChemistryMarker),
    markerCount: z.number().int().min(0),
  })
  .meta({ id: 'Chemistry' });
export type Chemistry = z.infer<typeof Chemistry>;

/** The general chemistry list's query (both kinds, or one). */
export const ChemistryListQuery = ListQuery.extend({ kind: z.enum(CHEMISTRY_KINDS).optional() });
export type ChemistryListQuery = z.infer<typeof ChemistryListQuery>;

/** "24: D3S1358, vWA, D16S539, …": the count, then the names in order (spec 2.7 Markers column). */
export function markerSummary(chemistry: Pick<Chemistry, 'markers' | 'markerCount'>): string {
  return `${chemistry.markerCount}: ${chemistry.markers.map((m) => m.name).join(', ')}`;
}
