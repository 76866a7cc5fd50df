import { setImmediate as nextTurn } from 'node:timers/promises';
import { and, asc, count, eq, gt, inArray } from 'drizzle-orm';
import type { Db } from '../db/database';
import { decodeGenotype } from '../db/genotype-codec';
import { markers, profiles } from '../db/schema';
import { IndexSet } from './index-set';
import type { MatchProfile, ProfileKind } from './types';

/**
 * Profiles read per round trip at start-up, on either engine (issue 29). A health probe waits for the page under way: on
 * PGlite's one connection for the page statement itself (pages of 2,000 held probes 130-204 ms while a 100,000-profile
 * index loaded, pages of 500 56-70 ms, pages of 250 no better and slower); on PostgreSQL for the pg driver, which parses
 * each page's rows on this thread (six alternating start-ups of a 1M index: pages of 2,000 held the loop 76-146 ms and
 * probes 180-233 ms, pages of 500 43-73 ms and 70-136 ms, ready in 20.5-25.0 s against 21.8-24.1 s).
 */
export const PAGE = 500;

/**
 * Time of the request thread spent indexing between two turns of the event loop at start-up (issue 29). A health probe
 * needs several turns (its request, its database's answer), so each waits behind one such stretch: a page of 5,000
 * indexed in one go held probes 200-260 ms at 1M; turns every 500 profiles (about 8 ms on a fast host, three times that
 * on a slow one, and longer while the code is still cold) held them 67-165 ms; every 125 profiles, 32-93 ms.
 */
export const TURN_MS = 2;

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

/** Spare room a loaded index keeps, as a fraction of its size (about 1 B per profile). */
export const START_SPARE = 1 / 64;

/**
 * Builds the index set from every approved profile (start-up), streaming keyset pages of the primary
 * key: each page reads only the matcher's columns and the packed genotype, so the whole database is
 * one pass over the profiles table. The next page is asked for before this one is decoded, so the
 * database reads while this thread indexes, a few hundred profiles a turn of the event loop. `onProgress`
 * hears the profiles loaded so far and how many the index will hold (approved ones counted before the
 * first page; more if approvals came meanwhile), before the first page and after each; `signal` stops
 * between pages (a rebuild that is no longer wanted).
 */
export async function loadMatchIndexes(db: Db, onProgress?: (loaded: number, total: number) => void, signal?: AbortSignal): Promise<IndexSet> {
  const set = new IndexSet();
  const names = await markerNamesByCode(db);
  const approved = eq(profiles.status, 'approved');
  // Each index's room made once, with the spare kept below: growing by doubling copied every column and rebuilt the id
  // table on the request thread as the load went (170 ms at 1M).
  const sizes = await db.select({ chemistryId: profiles.chemistryId, kind: profiles.kind, n: count() }).from(profiles).where(approved).groupBy(profiles.chemistryId, profiles.kind);
  for (const { chemistryId, kind, n } of sizes) set.reserve(chemistryId, kind as ProfileKind, Math.ceil(Number(n) * (1 + START_SPARE)));
  const total = sizes.reduce((sum, { n }) => sum + Number(n), 0);
  onProgress?.(0, total);
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
    // Waiting for the page was a turn.
    let turned = performance.now();
    signal?.throwIfAborted();
    next = rows.length === PAGE ? page(rows[rows.length - 1]!.id) : null;
    // A page asked for and then abandoned (abort, a failed upsert) must not be an unhandled rejection.
    next?.catch(() => undefined);
    for (let k = 0; k < rows.length; k++) {
      set.upsert(toMatchProfile(rows[k]!, names));
      if (performance.now() - turned >= TURN_MS) {
        await nextTurn();
        turned = performance.now();
      }
    }
    loaded += rows.length;
    onProgress?.(loaded, Math.max(total, loaded));
  }
  // Room beyond a sixty-fourth (approvals during the load grew an index, a kit's profiles all in the side list): given back
  // (issue 15: ≤ 64 B/profile once loaded). The sixty-fourth stays, so the approvals after a start do not grow the index at
  // once (a growth copies the columns and rebuilds the id table on the request thread: 170 ms at 1M profiles, issue 29).
  set.trim(START_SPARE);
  return set;
}
