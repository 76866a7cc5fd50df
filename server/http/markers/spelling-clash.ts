import { ne } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { markers } from '../../db/schema';
import { markerNameKey } from '../../db/seed/reference/marker-names';
import { BadRequest, Conflict } from '../errors';

interface Spelling {
  marker: string;
  spelling: string;
}

/**
 * Refuses a name or alias that another marker already answers to, compared as imports compare
 * them (markerNameKey: case, spaces, dots, dashes and underscores ignored). Without this one file
 * column could resolve to two markers, and every population upload would fail as ambiguous.
 */
export async function assertSpellingsFree(db: Db, marker: { id?: string; name: string; aliases: readonly string[] }): Promise<void> {
  const others = await db
    .select({ name: markers.name, aliases: markers.aliases })
    .from(markers)
    .where(marker.id ? ne(markers.id, marker.id) : undefined);
  const taken = new Map<string, Spelling>();
  for (const other of others) {
    for (const spelling of [other.name, ...other.aliases]) {
      // The name first, so a message names the alias only when the name itself does not match.
      const key = markerNameKey(spelling);
      if (!taken.has(key)) taken.set(key, { marker: other.name, spelling });
    }
  }
  const own: [label: string, spelling: string][] = [['Name', marker.name], ...marker.aliases.map((a): [string, string] => ['Alias', a])];
  for (const [label, spelling] of own) {
    const key = markerNameKey(spelling);
    if (key === '') throw new BadRequest(`${label} ${spelling} is only spaces, dots, dashes or underscores`);
    const clash = taken.get(key);
    if (clash) throw new Conflict(`${label} ${spelling} is already used by marker ${clash.marker}${via(clash, spelling)}`);
  }
}

/** " (as TH 01)" when the other marker answers to the spelling through an alias that looks different. */
function via(clash: Spelling, spelling: string): string {
  const obvious = clash.spelling === clash.marker || clash.spelling.toLowerCase() === spelling.toLowerCase();
  return obvious ? '' : ` (as ${clash.spelling})`;
}
