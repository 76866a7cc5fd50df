import { FrequencyBuilder } from './frequency-builder';
import { normaliseLineEndings } from './decode';
import { DecimalReader } from './numbers';
import type { AutosomalDraft, ParseContext, ResolvedMarker } from './types';

/** One meaningful line: its 1-based number and its text. */
interface Line {
  line: number;
  text: string;
}

/** A line read as either a marker title or an allele/frequency pair. */
type Entry = { kind: 'marker'; name: string } | { kind: 'allele'; allele: string; frequency: string } | { kind: 'unsupported'; text: string };

const NUMBERISH = /^[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:[eE][+-]?\d+)?$/;

function lines(text: string): Line[] {
  return normaliseLineEndings(text)
    .split('\n')
    .map((t, i) => ({ line: i + 1, text: t.trim() }))
    .filter((l) => l.text !== '');
}

/** Familias list line: `allele<TAB>frequency` (or space-separated, as pedtools also reads); anything else titles a marker. */
function familiasEntry(text: string): Entry {
  const parts = text.includes('\t') ? text.split('\t').map((p) => p.trim()) : text.split(/\s+/);
  // A marker name may itself contain a space (`Penta E`), so a pair needs a number in second place.
  if (parts.length === 2 && (text.includes('\t') || NUMBERISH.test(parts[1] ?? ''))) {
    return { kind: 'allele', allele: parts[0] ?? '', frequency: parts[1] ?? '' };
  }
  return { kind: 'marker', name: text };
}

/** MERLIN line: `M <marker>`, `A <allele> <frequency>`; `F` lines list frequencies of unnamed alleles. */
function merlinEntry(text: string): Entry {
  const m = /^M\s+(.+)$/.exec(text);
  if (m) return { kind: 'marker', name: m[1] ?? '' };
  const a = /^A\s+(\S+)\s+(\S+)$/.exec(text);
  if (a) return { kind: 'allele', allele: a[1] ?? '', frequency: a[2] ?? '' };
  return { kind: 'unsupported', text };
}

/** Whether text is a Familias frequency list (FORMATS.md 4f): a marker-name line followed by `allele<TAB>frequency` lines. */
export function isFamiliasList(text: string): boolean {
  const [first, second] = lines(text);
  if (!first || !second || /[\t;,]/.test(first.text)) return false;
  return familiasEntry(first.text).kind === 'marker' && familiasEntry(second.text).kind === 'allele';
}

/** Whether text is a MERLIN frequency file: `M <marker>` lines followed by `A <allele> <frequency>` lines. */
export function isMerlinList(text: string): boolean {
  const all = lines(text);
  return /^M\s+\S/.test(all[0]?.text ?? '') && all.some((l) => /^A\s+\S+\s+\S+$/.test(l.text));
}

/** Reads a Familias frequency list, the format norSTR and dvir ship (`codis.txt`, `NorskDB_v2023.txt`). */
export function parseFamiliasList(text: string, ctx: ParseContext): AutosomalDraft {
  return parseEntries(lines(text).map((l) => ({ ...l, entry: familiasEntry(l.text) })), 'Familias', ctx);
}

/** Reads a MERLIN frequency file (`M`/`A` lines), the variant pedtools also reads. */
export function parseMerlinList(text: string, ctx: ParseContext): AutosomalDraft {
  return parseEntries(
    lines(text)
      .filter((l) => !l.text.startsWith('#'))
      .map((l) => ({ ...l, entry: merlinEntry(l.text) })),
    'MERLIN frequency file',
    ctx,
  );
}

function parseEntries(entries: (Line & { entry: Entry })[], format: string, ctx: ParseContext): AutosomalDraft {
  const { errors, warnings } = ctx.issues;
  const builder = new FrequencyBuilder(ctx.resolve, ctx.issues);
  const numbers = new DecimalReader();
  // The title is resolved at its first allele line, so an empty block never blocks the upload.
  let title: { name: string; line: number; marker: ResolvedMarker | undefined; resolved: boolean; empty: boolean } | null = null;
  const closeTitle = () => {
    if (title?.empty) warnings.push({ row: title.line, marker: title.name, message: `${title.name} has no allele frequencies in this file; skipped` });
  };
  for (const { line, entry } of entries) {
    if (entry.kind === 'unsupported') {
      errors.push({ row: line, message: `Line "${entry.text}" is not a marker (M) or allele (A) line; MERLIN F lines name no alleles and are not supported` });
      continue;
    }
    if (entry.kind === 'marker') {
      closeTitle();
      title = { name: entry.name, line, marker: undefined, resolved: false, empty: true };
      continue;
    }
    if (!title) {
      errors.push({ row: line, message: 'An allele line comes before any marker name' });
      continue;
    }
    title.empty = false;
    if (!title.resolved) {
      title.marker = builder.marker(title.name, title.line);
      title.resolved = true;
    }
    const marker = title.marker;
    if (!marker) continue;
    const allele = builder.allele(marker, entry.allele, line, '; the line is skipped');
    if (allele === null) continue;
    const read = numbers.read(entry.frequency);
    if (!read.ok) {
      errors.push({ row: line, marker: marker.name, message: `Frequency of allele ${allele} at ${marker.name}: ${read.reason}` });
      builder.markUnreadable(marker);
    } else if (read.value !== 0) builder.add(marker, allele, read.value, line);
  }
  closeTitle();
  return { kind: 'Autosomal', format, markers: builder.build(), population: null, populations: [] };
}
