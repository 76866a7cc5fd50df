import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { caseNameVersions, profiles } from '../../db/schema';

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
  await lockCaseNames(tx, caseId);
  return caseProfileNamesHeld(tx, caseId, names);
}

/** A case's count of name changes (case_name_versions, kept by migration 0031's triggers); null: none since the migration. */
export type NamesVersion = string | null;

/**
 * Takes the case's names lock for the transaction; says whether the case's names version is still `since` (undefined:
 * not known, so no). Read in a statement of its own, after the lock: one begun before would not see what the lock
 * waited for.
 */
export async function lockCaseNames(tx: Db, caseId: string, since?: NamesVersion): Promise<boolean> {
  await tx.execute(sql`select pg_advisory_xact_lock(${CASE_PROFILE_NAMES_LOCK}, hashtext(${caseId}))`);
  return since !== undefined && (await caseNamesVersion(tx, caseId)) === since;
}

/** The case's names version as the caller sees it (inside an adding transaction after its insert: that insert included). */
export async function caseNamesVersion(db: Db, caseId: string): Promise<NamesVersion> {
  const [row] = await db.select({ version: caseNameVersions.version }).from(caseNameVersions).where(eq(caseNameVersions.caseId, caseId));
  return row ? String(row.version) : null;
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
