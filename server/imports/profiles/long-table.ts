import type { RowSource } from '../frequencies/types';
import { findAlleleColumns, findMarkerColumn, findPeakColumns, findRunColumn, findSampleColumn, type PeakColumns } from './columns';
import type { ProfileBuilder } from './profile-builder';
import type { Issues, MarkerResolver } from './types';

/** Where a long table (one row per sample × marker) keeps what Locus reads. */
export interface LongColumns {
  sample: number;
  marker: number;
  alleles: number[];
  /** GeneMapper's Sample File: rows of one name from two runs are two samples (or, with heights, two replicates of one). */
  run: number | null;
  /** Each allele column's `Height k` and `Size k` column (issue 31); null when the table has no heights. */
  peaks: PeakColumns | null;
}

/** The columns of a long table (FORMATS.md §2a, §2c), or null when the header lacks a marker or allele column. */
export function findLongColumns(header: readonly string[]): { columns: LongColumns | null; hasMarkerAndAlleles: boolean } {
  const marker = findMarkerColumn(header);
  const alleles = findAlleleColumns(header);
  const sample = findSampleColumn(header);
  const hasMarkerAndAlleles = marker !== null && alleles.length > 0;
  if (!hasMarkerAndAlleles || sample === null) return { columns: null, hasMarkerAndAlleles };
  return { columns: { sample, marker, alleles, run: findRunColumn(header), peaks: findPeakColumns(header, alleles) }, hasMarkerAndAlleles };
}

/** The most commas an unquoted sample name is tried with (Coble sample.csv has names with two). */
const MAX_NAME_COMMAS = 3;

/**
 * Reads a GeneMapper genotypes table or an LRmix/EuroForMix/strvalidator file: `Sample Name, Marker,
 * Allele 1…n[, Height 1…n, Size 1…n]`. Rows of one sample are merged into one profile; with heights, the rows of
 * one sample name from several runs (Sample File) are that profile's replicates (issue 31).
 */
export function parseLongTable(header: readonly string[], rows: RowSource, columns: LongColumns, builder: ProfileBuilder, resolve: MarkerResolver, issues: Issues): void {
  const width = header.length;
  const commaNames = new Set<string>();
  rows((row) => {
    let cells = row.cells;
    if (!resolve(cells[columns.marker] ?? '') && columns.sample < columns.marker) {
      const joined = joinCommaName(cells, columns, resolve);
      if (joined) {
        cells = joined;
        commaNames.add(cells[columns.sample]!);
      } else if (cells.length > width) {
        issues.errors.push({
          row: row.line,
          message: `Row ${row.line}: "${cells[columns.marker] ?? ''}" is not a known marker and the row has more values than the header; if the sample name holds a comma, put it in quotes`,
        });
        return;
      }
    }
    const name = cells[columns.sample] ?? '';
    const marker = cells[columns.marker] ?? '';
    if (name === '' || marker === '') {
      issues.errors.push({ row: row.line, message: `Row ${row.line} has no ${name === '' ? 'sample name' : 'marker'}; skipped` });
      return;
    }
    if (builder.skipControl(name, row.line)) return;
    const run = columns.run === null ? null : (cells[columns.run] ?? '');
    if (columns.peaks) {
      const at = (index: number | null) => (index === null ? '' : (cells[index] ?? ''));
      const peakCells = { alleles: columns.peaks.alleles.map(at), heights: columns.peaks.heights.map(at), sizes: columns.peaks.sizes.map(at) };
      builder.addRunMarker(builder.sampleOf(name, null, row.line), run || name, marker, peakCells, row.line);
      return;
    }
    const sample = builder.sampleOf(name, run, row.line);
    builder.addMarker(sample, marker, columns.alleles.map((i) => cells[i] ?? ''), row.line, 'refuse');
  });
  if (commaNames.size > 0) {
    issues.warnings.push({ row: null, message: `Sample names holding an unquoted comma were read whole: ${[...commaNames].join('; ')}` });
  }
}

/**
 * A row whose sample name holds unquoted commas (FORMATS.md §2a: `ID_1_SA_NG1_R1,0_A1_V1`) has its name
 * split over several cells, shifting the marker right. Joins the name back when that puts a known marker
 * in the marker column; null when no join does.
 */
function joinCommaName(cells: readonly string[], columns: LongColumns, resolve: MarkerResolver): string[] | null {
  for (let extra = 1; extra <= MAX_NAME_COMMAS && columns.marker + extra < cells.length; extra++) {
    if (!resolve(cells[columns.marker + extra] ?? '')) continue;
    const name = cells.slice(columns.sample, columns.sample + extra + 1).join(',');
    return [...cells.slice(0, columns.sample), name, ...cells.slice(columns.sample + extra + 1)];
  }
  return null;
}
