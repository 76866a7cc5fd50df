import { designationProblem, isAlleleDesignation, normaliseAllele } from './alleles';
import { FrequencyBuilder } from './frequency-builder';
import {
  ALLELE_COUNT_HEADERS,
  ALLELE_HEADERS,
  INDIVIDUALS_HEADERS,
  MARKER_HEADERS,
  POPULATION_HEADERS,
  SUMMARY_ROWS,
  headerKey,
} from './header-names';
import { DecimalReader, isBlank, readCount } from './numbers';
import { distinct, pickPopulation } from './populations';
import type { AutosomalDraft, ParseContext, ResolvedMarker, Table, TableRow } from './types';

/** How the allele × marker grid sits in the table. */
interface Layout {
  format: string;
  header: TableRow;
  alleleCol: number;
  markerCols: number[];
  populationCol: number | null;
  individualsCol: number | null;
  /** Rows holding alleles (and, in a preamble table, nothing above its `Allele` row). */
  body: TableRow[];
}

/** Whether a table is an Allele × Marker grid: an `Allele` column header, or a `STR,<markers>` … `Allele` preamble (FORMATS.md 4a, 4b, 4e). */
export function isWideTable(table: Table): boolean {
  return findLayout(table) !== null;
}

// Covers EuroForMix, LRmix Studio, STRidER CSV, strvalidator database.txt and published tables with `STR`/`N`/`Allele`
// rows: one row per allele, one column per marker, empty cell = not observed.
/** Reads an Allele × Marker frequency table. */
export function parseWideTable(table: Table, ctx: ParseContext): AutosomalDraft {
  const layout = findLayout(table);
  if (!layout) throw new Error('parseWideTable called on a table without an Allele column');
  const { errors, warnings } = ctx.issues;
  const { header, alleleCol, markerCols, populationCol } = layout;

  // Several databases can be stacked in one file (strvalidator); read only the chosen one.
  const populations = populationCol === null ? [] : distinct(layout.body.map((r) => r.cells[populationCol] ?? '').filter((p) => p !== ''));
  const pick = pickPopulation(populations, ctx.population);
  const draft: AutosomalDraft = { kind: 'Autosomal', format: layout.format, markers: [], population: null, populations };
  if (!pick.ok) {
    errors.push({ row: null, message: pick.message });
    return draft;
  }
  draft.population = pick.population;
  const rows = populationCol === null ? layout.body : layout.body.filter((r) => r.cells[populationCol] === pick.population);

  const numbers = new DecimalReader();
  const alleleRows: { row: TableRow; allele: string }[] = [];
  const sizes = new Map<number, number>();
  for (const row of rows) {
    const label = row.cells[alleleCol] ?? '';
    const key = headerKey(label);
    if (INDIVIDUALS_HEADERS.has(key) || ALLELE_COUNT_HEADERS.has(key)) {
      readSizeRow(row, markerCols, ALLELE_COUNT_HEADERS.has(key), sizes, ctx);
      continue;
    }
    if (SUMMARY_ROWS.has(key) && !isAlleleDesignation(normaliseAllele(label))) {
      warnings.push({ row: row.line, message: `Row "${label}" is a summary statistic, not an allele; skipped` });
      continue;
    }
    const allele = readAlleleLabel(row, layout, table, ctx);
    if (allele !== null) alleleRows.push({ row, allele });
  }

  // Resolve only markers that hold data: a listed but empty marker is no reason to refuse the file.
  const builder = new FrequencyBuilder(ctx.resolve, ctx.issues);
  const columns: { col: number; marker: ResolvedMarker }[] = [];
  const columnOf = new Map<string, number>();
  for (const col of markerCols) {
    const name = header.cells[col] ?? '';
    const hasData = alleleRows.some(({ row }) => holdsValue(row.cells[col]));
    if (!hasData) {
      if (name !== '') warnings.push({ row: header.line, marker: name, message: `${name} has no allele frequencies in this file; skipped` });
      continue;
    }
    if (name === '') {
      errors.push({ row: header.line, message: `Column ${col + 1} holds frequencies but has no marker name` });
      continue;
    }
    const marker = builder.marker(name, header.line);
    if (!marker) continue;
    const earlier = columnOf.get(marker.id);
    if (earlier !== undefined) {
      errors.push({
        row: header.line,
        marker: marker.name,
        message: `Marker ${marker.name} appears in two columns (${header.cells[earlier]} and ${name})`,
      });
      continue;
    }
    columnOf.set(marker.id, col);
    columns.push({ col, marker });
  }

  for (const { row, allele } of alleleRows) {
    for (const { col, marker } of columns) {
      const cell = row.cells[col] ?? '';
      if (isBlank(cell)) continue;
      const read = numbers.read(cell);
      if (!read.ok) {
        errors.push({ row: row.line, marker: marker.name, message: `Frequency of allele ${allele} at ${marker.name}: ${read.reason}` });
        builder.markUnreadable(marker);
        continue;
      }
      // A zero is written where the allele was not observed (pop.STR-style grids): the same as an empty cell.
      if (read.value === 0) continue;
      builder.add(marker, allele, read.value, row.line);
    }
  }

  const fromColumn = sampleSizeColumn(rows, layout, ctx);
  for (const { col, marker } of columns) builder.setSampleSize(marker, sizes.get(col) ?? fromColumn);
  draft.markers = builder.build();
  return draft;
}

function findLayout(table: Table): Layout | null {
  const [header, ...rest] = table.rows;
  if (!header) return null;
  const keys = header.cells.map(headerKey);
  const alleleCol = keys.findIndex((k) => ALLELE_HEADERS.has(k));
  if (alleleCol >= 0) {
    const populationCol = indexOrNull(keys.findIndex((k, i) => i < alleleCol && POPULATION_HEADERS.has(k)));
    const individualsCol = indexOrNull(keys.findIndex((k, i) => i !== alleleCol && INDIVIDUALS_HEADERS.has(k)));
    // strvalidator: every column right of Allele is a marker; anything left of it is information.
    const markerCols = header.cells.map((_, i) => i).filter((i) => i > alleleCol && i !== individualsCol && !POPULATION_HEADERS.has(keys[i] ?? ''));
    const strvalidator = keys[populationCol ?? -1] === 'database';
    const format = strvalidator ? `strvalidator frequency database (${table.container})` : `Wide allele × marker table (${table.container})`;
    return { format, header, alleleCol, markerCols, populationCol, individualsCol, body: rest };
  }
  // A published table re-typed into CSV: `STR,<markers>`, `N,<sizes>`, `Allele,,,`, then the alleles.
  if (!MARKER_HEADERS.has(keys[0] ?? '')) return null;
  const alleleRow = rest.findIndex((r) => ALLELE_HEADERS.has(headerKey(r.cells[0])));
  if (alleleRow < 0) return null;
  const markerCols = header.cells.map((_, i) => i).filter((i) => i > 0);
  // Rows between the marker row and the Allele row (N, 2N…) are read like size rows in the body.
  const body = [...rest.slice(0, alleleRow), ...rest.slice(alleleRow + 1)];
  const format = `Wide allele × marker table with STR/N/Allele header rows (${table.container})`;
  return { format, header, alleleCol: 0, markerCols, populationCol: null, individualsCol: null, body };
}

function indexOrNull(i: number): number | null {
  return i >= 0 ? i : null;
}

/** A cell counts as data unless blank or a written-out zero; unreadable text counts, so it gets reported. */
function holdsValue(cell: string | undefined): boolean {
  if (isBlank(cell)) return false;
  return !/^[+-]?0*([.,]0*)?$/.test((cell ?? '').trim());
}

/** The row's allele, or null (reported) when the row cannot be trusted. */
function readAlleleLabel(row: TableRow, layout: Layout, table: Table, ctx: ParseContext): string | null {
  const { errors } = ctx.issues;
  const label = row.cells[layout.alleleCol] ?? '';
  const width = layout.header.cells.length;
  const overflow = row.cells.slice(width).some((c) => c !== '');
  const next = row.cells[layout.alleleCol + 1] ?? '';
  // An unquoted comma inside a label (`10,11`) pushes the whole row one column right (FORMATS.md 4e): flag, never guess.
  if (table.delimiter === ',' && (overflow || (/^\d+(\.\d)?$/.test(next) && Number(next) >= 2))) {
    errors.push({
      row: row.line,
      message: `The allele label reads as "${label},${next}": an unquoted comma shifts this row one column to the right. Quote the label or fix the row; it is skipped`,
    });
    return null;
  }
  if (overflow) {
    errors.push({ row: row.line, message: `This row has ${row.cells.length} cells but the header has ${width}; it is skipped` });
    return null;
  }
  if (label === '') {
    if (layout.markerCols.some((c) => holdsValue(row.cells[c]))) {
      errors.push({ row: row.line, message: 'This row holds frequencies but no allele; it is skipped' });
    }
    return null;
  }
  // A decimal-comma file writes microvariants as 9,3 too.
  const text = table.delimiter !== ',' && /^\d+,\d$/.test(label) ? label.replace(',', '.') : label;
  // X and Y are checked per marker column once the frequencies are in (validate.ts).
  const problem = designationProblem(text);
  if (problem) {
    errors.push({ row: row.line, message: `"${label}" ${problem}; the row is skipped` });
    return null;
  }
  return normaliseAllele(text);
}

/** Reads an `N` (or `2N`) row: the sample size of each marker column. */
function readSizeRow(row: TableRow, markerCols: number[], countsAlleles: boolean, sizes: Map<number, number>, ctx: ParseContext): void {
  for (const col of markerCols) {
    const cell = row.cells[col] ?? '';
    if (isBlank(cell)) continue;
    const n = readCount(cell);
    if (n === null) {
      ctx.issues.errors.push({ row: row.line, message: `Sample size "${cell}" in column ${col + 1} is not a positive whole number` });
      continue;
    }
    sizes.set(col, countsAlleles ? Math.floor(n / 2) : n);
  }
}

/** N from an `N` column (one value per database, as strvalidator writes it), else unknown. */
function sampleSizeColumn(rows: TableRow[], layout: Layout, ctx: ParseContext): number | null {
  const nCol = layout.individualsCol;
  if (nCol === null) return null;
  for (const row of rows) {
    const cell = row.cells[nCol] ?? '';
    if (isBlank(cell)) continue;
    const n = readCount(cell);
    if (n !== null) return n;
    ctx.issues.errors.push({ row: row.line, message: `Sample size "${cell}" is not a positive whole number` });
    return null;
  }
  return null;
}
