import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { profiles } from '../../db/schema';

/** The first key of the advisory locks that serialize adding profiles to one case (the second is the case's hash). */
const CASE_PROFILE_NAMES_LOCK = 15_001;

/**
 * A case holds each sample name once, compared without case (spec 3: `profileId` unique within its case). Checked
 * here inside the adding transaction, under a lock per case held to its end, rather than by a unique index on
 * (case, lower(name)): that index cost 50 bytes of every profile at a million profiles (issue 15: ≤ 400 a profile),
 * and only two places add profiles (by hand and an import's batches). Returns the names among `names` that the case
 * already holds, as stored; the caller refuses them and rolls back.
 */
export async function lockCaseProfileNames(tx: Db, caseId: string, names: readonly string[]): Promise<string[]> {
  await tx.execute(sql`select pg_advisory_xact_lock(${CASE_PROFILE_NAMES_LOCK}, hashtext(${caseId}))`);
  return caseProfileNamesHeld(tx, caseId, names);
}

/** The names among `names` the case holds already (without case), as stored; no lock: a check ahead of the real one. */
export async function caseProfileNamesHeld(db: Db, caseId: string, names: readonly string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const lowered = [...new Set(names.map((n) => n.toLowerCase()))];
  const rows = await db
    .select({ name: profiles.profileId })
    .from(profiles)
    .where(and(eq(profiles.caseId, caseId), inArray(sql`lower(${profiles.profileId})`, lowered)));
  return rows.map((r) => r.name);
}
