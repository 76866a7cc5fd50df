import { markers } from '../db/schema';
import type { Db } from '../db/database';
import { buildMarkerResolver, type ResolvedMarker } from '../db/seed/reference/marker-names';

/** The markers table as the file parsers need it: a name (or alias, any case) → marker, and each marker by id. */
export interface MarkerCatalogue {
  resolve(name: string): ResolvedMarker | undefined;
  byId: ReadonlyMap<string, ResolvedMarker>;
}

/** Reads every marker once per upload (frequencies or profiles); an unknown name then gives "Marker {name} is invalid" (spec 5). */
export async function loadMarkerCatalogue(db: Db): Promise<MarkerCatalogue> {
  const rows = await db.select({ id: markers.id, name: markers.name, kind: markers.kind, aliases: markers.aliases, multiCopy: markers.multiCopy }).from(markers);
  const known = rows.map((m) => ({ ...m, kind: m.kind === 'YStr' ? ('YStr' as const) : ('Autosomal' as const) }));
  return { resolve: buildMarkerResolver(known), byId: new Map(known.map((m) => [m.id, { id: m.id, name: m.name, kind: m.kind, multiCopy: m.multiCopy }])) };
}
