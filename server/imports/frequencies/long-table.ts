import { FrequencyBuilder } from './frequency-builder';
import {
  ALLELE_COUNT_HEADERS,
  ALLELE_HEADERS,
  FREQUENCY_HEADERS,
  INDIVIDUALS_HEADERS,
  MARKER_HEADERS,
  POPULATION_HEADERS,
  headerKey,
} from './header-names';
import { DecimalReader, isBlank, readCount } from './numbers';
import { distinct, pickPopulation } from './populations';
import type { AutosomalDraft, ParseContext, ResolvedMarker, Table } from './types';

/** The columns of a long table, found by header name. */
export interface LongColumns {
  marker: number;
  allele: number;
  frequency: number;
  population: number | null;
  /** N in individuals, or in alleles (then halved). */
  size: { col: number; countsAlleles: boolean } | null;
}

/** Finds a long table's columns: marker, allele and frequency are required; population and N are optional. */
export function findLongColumns(table: Table): LongColumns | null {
  const keys = (table.rows[0]?.cells ?? []).map(headerKey);
  const find = (names: Set<string>) => keys.findIndex((k) => names.has(k));
  const marker = find(MARKER_HEADERS);
  const allele = find(ALLELE_HEADERS);
  const frequency = find(FREQUENCY_HEADERS);
  if (marker < 0 || allele < 0 || frequency < 0) return null;
  const population = find(POPULATION_HEADERS);
  const individuals = find(INDIVIDUALS_HEADERS);
  const alleleCount = find(ALLELE_COUNT_HEADERS);
  const size = individuals >= 0 ? { col: individuals, countsAlleles: false } : alleleCount >= 0 ? { col: alleleCount, countsAlleles: true } : null;
  return { marker, allele, frequency, population: population >= 0 ? population : null, size };
}

/** Reads a long table, one row per (population,) marker and allele, as fbi2015.csv and nist1036.csv are written. */
export function parseLongTable(table: Table, ctx: ParseContext): AutosomalDraft {
  const cols = findLongColumns(table);
  if (!cols) throw new Error('parseLongTable called on a table without marker, allele and frequency columns');
  const { errors } = ctx.issues;
  const body = table.rows.slice(1);
  const popCol = cols.population;
  const populations = popCol === null ? [] : distinct(body.map((r) => r.cells[popCol] ?? '').filter((p) => p !== ''));
  const draft: AutosomalDraft = { kind: 'Autosomal', format: 'Long marker/allele/frequency table', markers: [], population: null, populations };
  const pick = pickPopulation(populations, ctx.population);
  if (!pick.ok) {
    errors.push({ row: null, message: pick.message });
    return draft;
  }
  draft.population = pick.population;

  const builder = new FrequencyBuilder(ctx.resolve, ctx.issues);
  const numbers = new DecimalReader();
  const sized = new Set<string>();
  for (const row of body) {
    if (popCol !== null && row.cells[popCol] !== pick.population) continue;
    const name = row.cells[cols.marker] ?? '';
    const label = row.cells[cols.allele] ?? '';
    const cell = row.cells[cols.frequency] ?? '';
    if (name === '') {
      errors.push({ row: row.line, message: 'This row has no marker name; it is skipped' });
      continue;
    }
    const marker = builder.marker(name, row.line);
    if (!marker) continue;
    const allele = builder.allele(marker, label, row.line, '; the row is skipped');
    if (allele === null) continue;
    if (cols.size && !sized.has(marker.id)) readSize(row.cells[cols.size.col], cols.size.countsAlleles, marker, row.line);
    if (isBlank(cell)) continue;
    const read = numbers.read(cell);
    if (!read.ok) {
      errors.push({ row: row.line, marker: marker.name, message: `Frequency of allele ${allele} at ${marker.name}: ${read.reason}` });
      builder.markUnreadable(marker);
      continue;
    }
    if (read.value !== 0) builder.add(marker, allele, read.value, row.line);
  }
  draft.markers = builder.build();
  return draft;

  function readSize(cell: string | undefined, countsAlleles: boolean, marker: ResolvedMarker, line: number): void {
    sized.add(marker.id);
    if (isBlank(cell)) return;
    const n = readCount(cell);
    if (n === null) {
      errors.push({ row: line, marker: marker.name, message: `Sample size "${cell}" of ${marker.name} is not a positive whole number` });
      return;
    }
    builder.setSampleSize(marker, countsAlleles ? Math.floor(n / 2) : n);
  }
}
