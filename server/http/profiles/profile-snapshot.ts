import { eq } from 'drizzle-orm';
import type { ProfileWithMarkers } from '../../../core/schemas/profiles';
import type { Db } from '../../db/database';
import { profiles } from '../../db/schema';
import { NotFound } from '../errors';
import { readMarkerValues } from './marker-values';
import { readReplicates } from './replicate-view';
import { selectProfiles, toProfile } from './profile-query';

/** A profile with its marker values and replicates, as the view shows it and the audit trail records it. */
export async function profileSnapshot(db: Db, id: string): Promise<ProfileWithMarkers> {
  const [row] = await selectProfiles(db).where(eq(profiles.id, id));
  if (!row) throw new NotFound(`No profile with id ${id}`);
  const profile = toProfile(row);
  return { ...profile, markerValues: await readMarkerValues(db, id), replicates: await readReplicates(db, id, { id: profile.chemistryId, name: profile.chemistryName }) };
}

/** The audit entry fields of a profile write. */
export const profileAuditTarget = (p: { id: string; caseId: string; organizationId: string }) => ({ entity: 'Profile', entityId: p.id, caseId: p.caseId, organizationId: p.organizationId });
