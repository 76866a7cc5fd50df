import { asc, eq, gt, and, inArray } from 'drizzle-orm';
import type { Db } from '../db/database';
import { markers, profileMarkers, profiles } from '../db/schema';
import { IndexSet } from './index-set';
import type { MatchProfile, ProfileKind } from './types';

/** Profiles read per round trip at start-up: bounded memory whatever the database size. */
const PAGE = 5000;

type ProfileRow = Pick<typeof profiles.$inferSelect, 'id' | 'kind' | 'chemistryId' | 'organizationId' | 'sampleType'>;

/** Profiles with their genotypes by marker name, as the matcher takes them. */
export async function loadMatchProfiles(db: Db, rows: readonly ProfileRow[], markerNames?: ReadonlyMap<string, string>): Promise<MatchProfile[]> {
  if (rows.length === 0) return [];
  const names = markerNames ?? new Map((await db.select({ id: markers.id, name: markers.name }).from(markers)).map((m) => [m.id, m.name]));
  const values = await db
    .select({ profileId: profileMarkers.profileId, markerId: profileMarkers.markerId, alleles: profileMarkers.alleles })
    .from(profileMarkers)
    .where(inArray(profileMarkers.profileId, rows.map((r) => r.id)))
    .orderBy(asc(profileMarkers.position));
  const genotypes = new Map(rows.map((r) => [r.id, new Map<string, string[]>()]));
  for (const v of values) genotypes.get(v.profileId)!.set(names.get(v.markerId) ?? v.markerId, v.alleles);
  return rows.map((r) => ({ id: r.id, kind: r.kind as ProfileKind, chemistryId: r.chemistryId, organizationId: r.organizationId, sampleType: r.sampleType, genotypes: genotypes.get(r.id)! }));
}

/** One profile from the database as the matcher takes it (the approve route passes it to MatchingService.approved). */
export async function loadMatchProfile(db: Db, profileId: string): Promise<MatchProfile | undefined> {
  const rows = await db.select({ id: profiles.id, kind: profiles.kind, chemistryId: profiles.chemistryId, organizationId: profiles.organizationId, sampleType: profiles.sampleType }).from(profiles).where(eq(profiles.id, profileId));
  return (await loadMatchProfiles(db, rows))[0];
}

/** Builds the index set from every approved profile (start-up), page by page; `onProgress` hears profiles loaded so far. */
export async function loadMatchIndexes(db: Db, onProgress?: (loaded: number) => void): Promise<IndexSet> {
  const set = new IndexSet();
  const names = new Map((await db.select({ id: markers.id, name: markers.name }).from(markers)).map((m) => [m.id, m.name]));
  let after: string | null = null;
  let loaded = 0;
  for (;;) {
    const approved = eq(profiles.status, 'approved');
    const rows = await db
      .select({ id: profiles.id, kind: profiles.kind, chemistryId: profiles.chemistryId, organizationId: profiles.organizationId, sampleType: profiles.sampleType })
      .from(profiles)
      .where(after === null ? approved : and(approved, gt(profiles.id, after)))
      .orderBy(asc(profiles.id))
      .limit(PAGE);
    for (const profile of await loadMatchProfiles(db, rows, names)) set.upsert(profile);
    loaded += rows.length;
    onProgress?.(loaded);
    if (rows.length < PAGE) return set;
    after = rows[rows.length - 1]!.id;
  }
}
