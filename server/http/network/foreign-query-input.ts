import { eq, sql } from 'drizzle-orm';
import type { ForeignQueryBody } from '../../../core/schemas/foreign-queries';
import type { Db } from '../../db/database';
import { chemistries } from '../../db/schema';
import type { ProfileKind } from '../../matching/types';
import { BadRequest } from '../errors';
import { loadMarkerCatalogue } from '../marker-catalogue';
import { assertNoMarkerErrors, checkMarkerValues, chemistryOrder, loadMarkers, type FieldError } from '../profiles/marker-values';

/** A foreign query's profile checked by this instance's rules: its kit, kind and genotypes by marker name. */
export interface ForeignProfile {
  chemistryId: string;
  kind: ProfileKind;
  query: Map<string, string[]>;
}

/**
 * Reads a foreign query's kit and marker values (issue 32): the kit and each marker by name or alias, as a profile
 * import resolves them, then the allele rules a keyboard search applies (a stain may be a mixture). Every problem is
 * a 400 naming the field, so the sending instance can say what was wrong.
 */
export async function readForeignProfile(db: Db, body: ForeignQueryBody): Promise<ForeignProfile> {
  const kits = await db.select().from(chemistries).where(eq(sql`lower(${chemistries.name})`, body.kit.toLowerCase()));
  if (kits.length !== 1) {
    const message = kits.length === 0 ? `This instance has no kit named "${body.kit}"` : `Two kits here are named "${body.kit}" (autosomal and Y-STR): this instance cannot tell which`;
    throw new BadRequest(message, [{ path: '/kit', message }]);
  }
  const kit = kits[0]!;
  const kind = kit.kind as ProfileKind;
  const catalogue = await loadMarkerCatalogue(db);
  const unknown: FieldError[] = [];
  const values = body.markerValues.flatMap((v, i) => {
    const marker = catalogue.resolve(v.marker);
    if (marker) return [{ markerId: marker.id, alleles: v.alleles }];
    unknown.push({ path: `/markerValues/${i}/marker`, message: `Marker ${v.marker} is unknown here` });
    return [];
  });
  assertNoMarkerErrors(unknown);
  const markers = await loadMarkers(db, values.map((v) => v.markerId));
  const checked = checkMarkerValues(values, { kind, sampleType: 'Forensic Mixture', markers, order: await chemistryOrder(db, kit.id) });
  // The checks name the field by its marker id, which the sender does not know: point at its marker name instead.
  assertNoMarkerErrors(checked.errors.map((e) => ({ ...e, path: e.path.replace(/\/markerId$/, '/marker') })));
  return { chemistryId: kit.id, kind, query: new Map(checked.values.map((v) => [markers.get(v.markerId)!.name, v.alleles])) };
}
