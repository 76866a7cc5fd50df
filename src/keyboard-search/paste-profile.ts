import { isAmelogenin } from '../../core/alleles';
import { formatAlleles, parseAlleleText } from '../profiles/allele-text';

/** What a pasted profile gave: alleles text per marker id, and a message per line naming a marker not in the chemistry. */
export interface PastedProfile {
  texts: Record<string, string>;
  problems: string[];
}

/** A marker name as compared: case, spaces, dashes and underscores do not count (`vWA`, `VWA`, `D2S 1338`). */
const nameKey = (name: string) => (isAmelogenin(name) ? 'amelogenin' : name.toLowerCase().replace(/[\s_-]+/g, ''));

/** A first cell that is a header, not a marker (`Marker,Allele1,Allele2`). */
const HEADERS = new Set(['marker', 'locus', 'markername']);

/**
 * Reads a pasted profile, one marker per line, in either shape the keyboard search accepts (issue 6):
 * CSV `Marker,Allele1,Allele2` (a header line is skipped; tabs and semicolons also separate) or the
 * CODIS-like `D3S1358 15,16`. Names match the chemistry's markers whatever their case; an unknown
 * one gives spec 5's "Marker {name} is invalid". A marker listed twice keeps its last line.
 */
export function parsePastedProfile(text: string, markers: readonly { id: string; name: string }[]): PastedProfile {
  const byName = new Map(markers.map((m) => [nameKey(m.name), m.id]));
  const texts: Record<string, string> = {};
  const problems: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '') continue;
    const [, name = '', rest = ''] = /^([^\s,;\t]+)[\s,;\t]*(.*)$/.exec(line) ?? [];
    if (HEADERS.has(nameKey(name))) continue;
    const markerId = byName.get(nameKey(name));
    if (!markerId) {
      problems.push(`Marker ${name} is invalid`);
      continue;
    }
    texts[markerId] = formatAlleles(parseAlleleText(rest));
  }
  return { texts, problems };
}

/** Whether pasted text holds a whole profile (several lines) rather than one field's alleles. */
export const isWholeProfile = (text: string): boolean => text.trim().includes('\n');
