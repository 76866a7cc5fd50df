import type { MarkerValue, ProfileKind } from '../../core/schemas/profiles';
import { formatAlleles } from './allele-text';
import type { ProfileFormOptions } from './profiles-api';

/** One row of the marker entry form: a marker, what the allele rules need to know of it, and its alleles as text. */
export interface MarkerRow {
  markerId: string;
  name: string;
  kind: ProfileKind;
  multiCopy: boolean;
  /** False for a marker the profile holds outside its chemistry's kit. */
  inKit: boolean;
  text: string;
}

/**
 * The marker entry form's rows (spec 2.8 `…/edit/markers`): the chemistry's markers in kit order,
 * then the markers the profile holds outside the kit, each with the alleles stored for it and its own
 * kind (GlobalFiler's DYS391 is a Y-STR marker in an autosomal kit).
 */
export function markerRows(
  chemistryId: string,
  kind: ProfileKind,
  markerValues: readonly MarkerValue[],
  chemistries: ProfileFormOptions['chemistries'],
): MarkerRow[] {
  const stored = new Map(markerValues.map((m) => [m.markerId, m.alleles]));
  const kinds = new Map(chemistries.flatMap((c) => c.markers.map((m) => [m.id, m.kind] as const)));
  const multiCopy = new Set(chemistries.flatMap((c) => c.markers.filter((m) => m.multiCopy).map((m) => m.id)));
  // A marker in no kit is known only by the profile it is in.
  const kindOf = (id: string): ProfileKind => kinds.get(id) ?? kind;
  const kit = chemistries.find((c) => c.id === chemistryId)?.markers ?? [];
  const inKit = new Set(kit.map((m) => m.id));
  return [
    ...kit.map((m) => ({ markerId: m.id, name: m.name, kind: kindOf(m.id), multiCopy: m.multiCopy, inKit: true, text: formatAlleles(stored.get(m.id) ?? []) })),
    ...markerValues
      .filter((m) => !inKit.has(m.markerId))
      .map((m) => ({ markerId: m.markerId, name: m.marker, kind: kindOf(m.markerId), multiCopy: multiCopy.has(m.markerId), inKit: false, text: formatAlleles(m.alleles) })),
  ];
}
