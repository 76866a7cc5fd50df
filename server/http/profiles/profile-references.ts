import { and, eq } from 'drizzle-orm';
import type { ProfileKind } from '../../../core/schemas/profiles';
import type { Db } from '../../db/database';
import { chemistries, involvedParties, laboratories, physicalItems, sampleSources } from '../../db/schema';
import { BadRequest } from '../errors';

/** The records a profile form names, as the profile needs them. */
export interface ProfileReferences {
  chemistry: { id: string; name: string; kind: ProfileKind };
}

/** Checks that the chemistry, sample source, laboratory, item and party a profile names exist (the item and the party in this case). */
export async function checkProfileReferences(
  db: Db,
  caseId: string,
  input: { chemistryId: string; sampleSourceId: string | null; laboratoryId: string | null; physicalItemId: string | null; involvedPartyId?: string | null | undefined },
): Promise<ProfileReferences> {
  const [chemistry] = await db.select({ id: chemistries.id, name: chemistries.name, kind: chemistries.kind }).from(chemistries).where(eq(chemistries.id, input.chemistryId));
  if (!chemistry) throw new BadRequest('Choose an existing chemistry', [{ path: '/chemistryId', message: 'No such chemistry' }]);
  if (input.sampleSourceId) {
    const [found] = await db.select({ id: sampleSources.id }).from(sampleSources).where(eq(sampleSources.id, input.sampleSourceId));
    if (!found) throw new BadRequest('Choose an existing sample source', [{ path: '/sampleSourceId', message: 'No such sample source' }]);
  }
  if (input.laboratoryId) {
    const [found] = await db.select({ id: laboratories.id }).from(laboratories).where(eq(laboratories.id, input.laboratoryId));
    if (!found) throw new BadRequest('Choose an existing laboratory', [{ path: '/laboratoryId', message: 'No such laboratory' }]);
  }
  if (input.physicalItemId) {
    const [found] = await db.select({ id: physicalItems.id }).from(physicalItems).where(and(eq(physicalItems.id, input.physicalItemId), eq(physicalItems.caseId, caseId)));
    if (!found) throw new BadRequest('Choose an item of this case', [{ path: '/physicalItemId', message: 'Not an item of this case' }]);
  }
  if (input.involvedPartyId) {
    const [found] = await db.select({ id: involvedParties.id }).from(involvedParties).where(and(eq(involvedParties.id, input.involvedPartyId), eq(involvedParties.caseId, caseId)));
    if (!found) throw new BadRequest('Choose an involved party of this case', [{ path: '/involvedPartyId', message: 'Not an involved party of this case' }]);
  }
  return { chemistry: { ...chemistry, kind: chemistry.kind as ProfileKind } };
}
