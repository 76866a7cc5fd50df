import { and, asc, count, eq, gt, inArray } from 'drizzle-orm';
import type { Db } from '../db/database';
import { decodeGenotype } from '../db/genotype-codec';
import { markers, profiles } from '../db/schema';
import { IndexSet } from './index-set';
import type { MatchProfile, ProfileKind } from './types';

/**
 * Profiles read per round trip at start-up: one indexed range of the primary key, about 0.8 MB. On PGlite's one
 * connection a health probe waits for the page under way, and the request thread decodes a page between two probes:
 * pages of 20,000 held probes 150-380 ms while a 100,000-profile index loaded, pages of 5,000 about a quarter of that
 * (issue 29), for 0.3 s more of a 6.7 s start.
 */
const PAGE = 5_000;

/** What the matcher needs of a profile row: its tenancy, kit, sample type and packed genotype. */
const matchColumns = {
  id: profiles.id,
  kind: profiles.kind,
  chemistryId: profiles.chemistryId,
  organizationId: profiles.organizationId,
  sampleType: profiles.sampleType,
  genotype: profiles.genotype,
};

type MatchRow = { id: string; kind: string; chemistryId: string; organizationId: string; sampleType: string; genotype: Uint8Array };

/** Marker names by code (markers.code), as the packed genotypes name markers. */
export async function markerNamesByCode(db: Db): Promise<Map<number, string>> {
  return new Map((await db.select({ code: markers.code, name: markers.name }).from(markers)).map((m) => [m.code, m.name]));
}

/** A profile row as the matcher takes it: genotypes by marker name, in stored order. */
export function toMatchProfile(row: MatchRow, names: ReadonlyMap<number, string>): MatchProfile {
  const genotypes = new Map<string, string[]>();
  for (const { code, alleles } of decodeGenotype(row.genotype)) genotypes.set(names.get(code) ?? `#${code}`, alleles as string[]);
  return { id: row.id, kind: row.kind as ProfileKind, chemistryId: row.chemistryId, organizationId: row.organizationId, sampleType: row.sampleType, genotypes };
}

/** Profiles by id, as the matcher takes them (in no particular order; ids not found are left out). */
export async function loadMatchProfiles(db: Db, ids: readonly string[], names?: ReadonlyMap<number, string>): Promise<MatchProfile[]> {
  if (ids.length === 0) return [];
  const rows = await db.select(matchColumns).from(profiles).where(inArray(profiles.id, [...ids]));
  const byCode = names ?? (await markerNamesByCode(db));
  return rows.map((row) => toMatchProfile(row, byCode));
}

/** One profile from the database as the matcher takes it (the approve route passes it to MatchingService.approved). */
export async function loadMatchProfile(db: Db, profileId: string): Promise<MatchProfile | undefined> {
  return (await loadMatchProfiles(db, [profileId]))[0];
}

/** How many approved profiles the index will hold (the denominator of the start-up progress). */
export async function countApprovedProfiles(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(profiles).where(eq(profiles.status, 'approved'));
  return Number(row?.n ?? 0);
}

/** Spare room a loaded index keeps, as a fraction of its size (about 1 B per profile). */
export const START_SPARE = 1 / 64;

/**
 * Builds the index set from every approved profile (start-up), streaming keyset pages of the primary
 * key: each page reads only the matcher's columns and the packed genotype, so the whole database is
 * one pass over the profiles table. The next page is asked for before this one is decoded, so the
 * database reads while this thread indexes. `onProgress` hears the profiles loaded so far after each
 * page; `signal` stops between pages (a rebuild that is no longer wanted).
 */
export async function loadMatchIndexes(db: Db, onProgress?: (loaded: number) => void, signal?: AbortSignal): Promise<IndexSet> {
  const set = new IndexSet();
  const names = await markerNamesByCode(db);
  const approved = eq(profiles.status, 'approved');
  const page = (after: string | null): Promise<MatchRow[]> =>
    db
      .select(matchColumns)
      .from(profiles)
      .where(after === null ? approved : and(approved, gt(profiles.id, after)))
      .orderBy(asc(profiles.id))
      .limit(PAGE);
  let next: Promise<MatchRow[]> | null = page(null);
  let loaded = 0;
  while (next) {
    const rows: MatchRow[] = await next;
    signal?.throwIfAborted();
    next = rows.length === PAGE ? page(rows[rows.length - 1]!.id) : null;
    // A page asked for and then abandoned (abort, a failed upsert) must not be an unhandled rejection.
    next?.catch(() => undefined);
    for (const row of rows) set.upsert(toMatchProfile(row, names));
    loaded += rows.length;
    onProgress?.(loaded);
  }
  // Growth left up to a sixteenth of spare room: give most of it back (issue 15: ≤ 64 B/profile once loaded), but keep
  // a sixty-fourth, so the approvals after a start do not grow the index at once (a growth copies the columns and
  // rebuilds the id table on the request thread: 170 ms at 1M profiles, issue 29).
  set.trim(START_SPARE);
  return set;
}
