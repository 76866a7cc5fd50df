import { and, eq, inArray } from 'drizzle-orm';
import type { MarkerValue } from '../../../core/schemas/profiles';
import { MAX_REPLICATES, type ImportedReplicate } from '../../../core/schemas/replicates';
import type { Db } from '../../db/database';
import { profileImportRows } from '../../db/schema';
import { BadRequest } from '../errors';

// Issue 31: samples of different names (stain51, stain68, stain80 of ESX17_evids_LTDNA.csv: three runs of one
// extract) joined as one profile's replicates, as the user confirmed in the preview. The rows stay as parsed;
// the join is applied whenever the chosen rows are read (check, add, resume), so a confirmation sent back
// with problems can be confirmed again with another grouping.

type RowRecord = typeof profileImportRows.$inferSelect;

/** Groups as the confirmation sent them, each in file order: the first row leads (keeps its name). */
export const orderedGroups = (groups: readonly (readonly number[])[]): number[][] => groups.map((g) => [...g].sort((a, b) => a - b));

const named = (r: Pick<RowRecord, 'index' | 'profileId'>) => `row ${r.index + 1} (${r.profileId})`;

/** Refuses a grouping the import cannot add (400, clear per row); returns the rows that join a leader. */
export async function checkGroups(db: Db, importId: string, profileCount: number, groups: readonly (readonly number[])[]): Promise<number[]> {
  const seen = new Set<number>();
  for (const index of groups.flat()) {
    if (index >= profileCount) throw new BadRequest(`Profile number ${index + 1} is not part of this import`);
    if (seen.has(index)) throw new BadRequest(`Profile number ${index + 1} is in two groups (or twice in one); a sample joins one profile only`);
    seen.add(index);
  }
  if (seen.size === 0) return [];
  const rows = await db.select().from(profileImportRows).where(and(eq(profileImportRows.importId, importId), inArray(profileImportRows.index, [...seen])));
  const byIndex = new Map(rows.map((r) => [r.index, r]));
  for (const group of orderedGroups(groups)) {
    const members = group.map((i) => byIndex.get(i)!);
    const lead = members[0]!;
    for (const m of members) {
      if (!m.chosen || (m.errors as string[]).length > 0) throw new BadRequest(`${named(m)} is left out or marked with errors; only chosen profiles can be joined as replicates`);
      if ((m.replicates as ImportedReplicate[]).length === 0) throw new BadRequest(`${named(m)} has no peak heights; only runs read with heights can be joined as one profile’s replicates`);
      if (m.kind !== lead.kind) throw new BadRequest(`${named(m)} is ${m.kind === 'YStr' ? 'a Y-STR' : 'an autosomal'} profile and ${named(lead)} is not; replicates are runs of one kit`);
      if ((m.kit ?? '') !== (lead.kit ?? '')) throw new BadRequest(`${named(m)} was typed with ${m.kit || 'no kit named'} and ${named(lead)} with ${lead.kit || 'no kit named'}; replicates are runs of one kit`);
    }
    const runs = members.reduce((n, m) => n + (m.replicates as ImportedReplicate[]).length, 0);
    if (runs > MAX_REPLICATES) throw new BadRequest(`The group led by ${named(lead)} holds ${runs} runs; a profile keeps at most ${MAX_REPLICATES} replicates`);
  }
  return orderedGroups(groups).flatMap((g) => g.slice(1));
}

/** The lead row with its group's runs: the marker values the union of their alleles (what searches read), the replicates one after another. */
function joined(lead: RowRecord, members: readonly RowRecord[]): RowRecord {
  const values = new Map<string, MarkerValue>();
  for (const row of [lead, ...members]) {
    for (const v of row.markerValues as MarkerValue[]) {
      const held = values.get(v.markerId);
      if (!held) values.set(v.markerId, { ...v, alleles: [...v.alleles] });
      else for (const a of v.alleles) if (!held.alleles.includes(a)) held.alleles.push(a);
    }
  }
  return { ...lead, markerValues: [...values.values()], replicates: [lead, ...members].flatMap((r) => r.replicates as ImportedReplicate[]) };
}

/** A page of chosen rows with each group's runs joined into its lead row (the members are not chosen). */
export async function withGroups(db: Db, importId: string, page: RowRecord[], groups: readonly (readonly number[])[] | undefined): Promise<RowRecord[]> {
  if (!groups || groups.length === 0) return page;
  const byLead = new Map(orderedGroups(groups).map((g) => [g[0]!, g.slice(1)]));
  const wanted = page.flatMap((r) => byLead.get(r.index) ?? []);
  if (wanted.length === 0) return page;
  const members = new Map(
    (await db.select().from(profileImportRows).where(and(eq(profileImportRows.importId, importId), inArray(profileImportRows.index, wanted)))).map((r) => [r.index, r]),
  );
  return page.map((r) => {
    const rest = byLead.get(r.index);
    return rest ? joined(r, rest.map((i) => members.get(i)!)) : r;
  });
}
