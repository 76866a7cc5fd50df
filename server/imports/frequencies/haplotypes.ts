import { alleleProblemAt, compareAlleles, normaliseAllele } from './alleles';
import { HAPLOTYPE_COUNT_HEADERS, HAPLOTYPE_INFO_HEADERS, POPULATION_HEADERS, headerKey } from './header-names';
import { isBlank, readCount } from './numbers';
import { distinct, pickPopulation } from './populations';
import type { Haplotype, HaplotypeDraft, MarkerResolver, ParseContext, ResolvedMarker, Table } from './types';

/** What a column of a haplotype table holds. */
type Column =
  | { kind: 'marker'; marker: ResolvedMarker }
  | { kind: 'population' }
  | { kind: 'count' }
  | { kind: 'info' }
  | { kind: 'skipped'; reason: string }
  | { kind: 'unknown'; name: string };

/** Population-like information columns: their values can split the table into populations. */
const POPULATION_INFO = new Set([...POPULATION_HEADERS, 'region', 'country']);

// A split multi-copy column (`DYS385a`, `DYS385 b`) that the resolver does not know by itself is a copy of its
// marker; derived columns such as `DYS385sum` are not loci (FORMATS.md §3).
/** What one header cell of a haplotype table holds. */
function classify(name: string, resolve: MarkerResolver): Column {
  const key = headerKey(name);
  if (key === '') return { kind: 'info' };
  const direct = resolve(name);
  if (direct) return direct.kind === 'YStr' ? { kind: 'marker', marker: direct } : { kind: 'skipped', reason: `${direct.name} is not a Y-STR marker` };
  if (POPULATION_INFO.has(key)) return { kind: 'population' };
  if (HAPLOTYPE_COUNT_HEADERS.has(key)) return { kind: 'count' };
  if (HAPLOTYPE_INFO_HEADERS.has(key)) return { kind: 'info' };
  const copy = /^(.+?)[\s_.-]?([ab])$/i.exec(name.trim());
  const base = copy ? resolve(copy[1] ?? '') : undefined;
  if (base?.kind === 'YStr') return { kind: 'marker', marker: base };
  const derived = /^(.+?)[\s_.-]?sum$/i.exec(name.trim());
  const summed = derived ? resolve(derived[1] ?? '') : undefined;
  if (summed) return { kind: 'skipped', reason: `${name} is derived from ${summed.name}, not a locus` };
  return { kind: 'unknown', name: name.trim() };
}

/** Whether a table looks like one row per man and one column per Y-STR marker (at least two such columns, or one when a Y-STR population is expected). */
export function isHaplotypeTable(table: Table, resolve: MarkerResolver, expectYStr: boolean): boolean {
  const header = table.rows[0]?.cells ?? [];
  const markers = header.map((h) => classify(h, resolve)).filter((c) => c.kind === 'marker').length;
  return markers >= (expectYStr ? 1 : 2);
}

/**
 * Y-STR tables write a null allele (a deletion, nothing amplified) as 0: no repeat number a profile can
 * carry (core/alleles: 0 < n < 100), so the man keeps no value at that marker, as an untyped one would.
 */
const NULL_ALLELE = '0';

// A multi-copy marker's values (one `12,13` cell or split a/b columns) form an unordered set, kept sorted;
// a missing value stays absent; identical haplotypes are merged with a count.
/** Reads a Y-STR haplotype table: one row per man, one column per Y-STR marker. */
export function parseHaplotypeTable(table: Table, ctx: ParseContext, options: { format: string; population?: string | null }): HaplotypeDraft {
  const { errors, warnings } = ctx.issues;
  const [header, ...body] = table.rows;
  const headerCells = header?.cells ?? [];
  const headerLine = header?.line ?? null;
  const columns = headerCells.map((h) => classify(h, ctx.resolve));
  const draft: HaplotypeDraft = { kind: 'YStr', format: options.format, markerIds: [], markerNames: [], haplotypes: [], population: null, populations: [] };

  columns.forEach((c, i) => {
    const name = headerCells[i] ?? '';
    if (c.kind === 'unknown') errors.push({ row: headerLine, marker: c.name, message: `Marker ${c.name} is invalid` });
    if (c.kind === 'skipped') warnings.push({ row: headerLine, marker: name, message: `${c.reason}; the column is skipped` });
    if (c.kind === 'marker' && !draft.markerIds.includes(c.marker.id)) {
      draft.markerIds.push(c.marker.id);
      draft.markerNames.push(c.marker.name);
    }
  });
  const markerCols = columns.flatMap((c, i) => (c.kind === 'marker' ? [{ col: i, marker: c.marker }] : []));
  const popCol = columns.findIndex((c) => c.kind === 'population');
  const countCol = columns.findIndex((c) => c.kind === 'count');

  // A sheet chosen as the population (xlsx) overrides the column, which then only describes the rows.
  let rows = body;
  if (options.population !== undefined) {
    draft.population = options.population;
    draft.populations = options.population === null ? [] : [options.population];
  } else if (popCol >= 0) {
    draft.populations = distinct(body.map((r) => r.cells[popCol] ?? '').filter((p) => p !== ''));
    const pick = pickPopulation(draft.populations, ctx.population);
    if (!pick.ok) {
      errors.push({ row: null, message: pick.message });
      return draft;
    }
    draft.population = pick.population;
    rows = body.filter((r) => (r.cells[popCol] ?? '') === pick.population);
  }

  const merged = new Map<string, Haplotype>();
  const nulls = new Map<ResolvedMarker, number[]>();
  for (const row of rows) {
    const values: Record<string, string[]> = {};
    for (const { col, marker } of markerCols) {
      const cell = row.cells[col] ?? '';
      if (isBlank(cell)) continue;
      for (const part of cell.split(',')) {
        if (part.trim() === '') continue;
        if (part.trim() === NULL_ALLELE) {
          nulls.set(marker, [...(nulls.get(marker) ?? []), row.line]);
          continue;
        }
        // A Y-STR marker is never Amelogenin, so X and Y are refused here too.
        const problem = alleleProblemAt(part, marker.name);
        if (problem) {
          errors.push({ row: row.line, marker: marker.name, message: `"${cell}" at ${marker.name} ${problem}` });
          continue;
        }
        (values[marker.id] ??= []).push(normaliseAllele(part));
      }
    }
    if (Object.keys(values).length === 0) {
      // An untyped sample (`--` everywhere) or a legend under the data.
      warnings.push({ row: row.line, message: 'This row has no Y-STR values; skipped' });
      continue;
    }
    for (const v of Object.values(values)) v.sort(compareAlleles);
    let count = 1;
    if (countCol >= 0 && !isBlank(row.cells[countCol])) {
      const n = readCount(row.cells[countCol]);
      if (n === null) {
        errors.push({ row: row.line, message: `Count "${row.cells[countCol]}" is not a positive whole number` });
        continue;
      }
      count = n;
    }
    const key = JSON.stringify(draft.markerIds.map((id) => values[id] ?? null));
    const seen = merged.get(key);
    if (seen) seen.count += count;
    else merged.set(key, { values, count });
  }
  for (const [marker, lines] of nulls) {
    const where = lines.length === 1 ? `row ${lines[0]}` : `${lines.length} rows (${lines.slice(0, 5).join(', ')}${lines.length > 5 ? ', …' : ''})`;
    warnings.push({ row: lines[0] ?? null, marker: marker.name, message: `${marker.name} is 0, a null allele, in ${where}: kept as no value at ${marker.name}` });
  }
  draft.haplotypes = [...merged.values()];
  return draft;
}
