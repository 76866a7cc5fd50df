import type { RowSource } from '../frequencies/types';
import { findRunColumn, findSampleColumn, isInfoColumn, isMeasureColumn, markerOfColumn, peakColumnKind } from './columns';
import { listPositions } from '../../../core/peak-cells';
import type { ProfileBuilder } from './profile-builder';
import type { Issues, MarkerResolver } from './types';

/** Where a wide table (one row per sample) keeps what Locus reads. */
export interface WideColumns {
  sample: number;
  run: number | null;
  /** Each marker column with the marker name it stands for (copies `vWA(2)`, `CSF1PO_3` name their marker). */
  markers: { index: number; name: string; known: boolean; height?: number; size?: number }[];
}

/** A wide table's columns, a header problem to report, or null when the header is not a wide profile table. */
export type WideHeader = { columns: WideColumns } | { problem: string } | null;

/**
 * Recognises a wide table (FORMATS.md §2b, §2d, CODIS export): a sample column, then a column per marker (or per
 * copy of a marker). Left of the sample column only known columns may stand (Sample File, Case Number…): anything
 * else there is a misspelt title (`Smaple File`) rather than a marker.
 */
export function findWideColumns(header: readonly string[], resolve: MarkerResolver): WideHeader {
  const sample = findSampleColumn(header);
  if (sample === null) return null;
  const markers: WideColumns['markers'] = [];
  for (const [index, cell] of header.entries()) {
    const last = markers[markers.length - 1];
    const peak = peakColumnKind(cell);
    // A samples table's `Height` column holds the heights of the marker column before it, position by position.
    if (peak !== null && last !== undefined && last[peak] === undefined && index > last.index) {
      last[peak] = index;
      continue;
    }
    if (index === sample || cell === '' || isInfoColumn(cell) || isMeasureColumn(cell)) continue;
    if (index < sample) {
      return { problem: `The column "${cell}" is not one Locus knows (such as Sample File, Sample Name or Case Number); check the spelling of the header` };
    }
    const { name, marker } = markerOfColumn(cell, resolve);
    markers.push({ index, name, known: marker !== undefined });
  }
  return markers.some((m) => m.known) ? { columns: { sample, run: findRunColumn(header), markers } } : null;
}

/**
 * Reads a GeneMapper samples table (cells `12, 13, , ,` with `Height` columns), a STRmix-style reference table
 * (`vWA`, `vWA(2)`), a CODIS database export (`CSF1PO_1`…, `NULL`) or a Y-STR haplotype table (`12,13` in one cell).
 */
export function parseWideTable(rows: RowSource, columns: WideColumns, builder: ProfileBuilder, issues: Issues): void {
  rows((row) => {
    const name = row.cells[columns.sample] ?? '';
    if (name === '') {
      issues.errors.push({ row: row.line, message: `Row ${row.line} has no sample name; skipped` });
      return;
    }
    if (builder.skipControl(name, row.line)) return;
    if (columns.markers.some((m) => m.height !== undefined)) {
      // With heights (issue 31): rows of one sample name are its runs (Sample File), the replicates of one profile.
      const sample = builder.sampleOf(name, null, row.line);
      const run = (columns.run === null ? '' : (row.cells[columns.run] ?? '')) || name;
      const list = (index: number | undefined) => (index === undefined ? null : listPositions(row.cells[index] ?? ''));
      for (const column of columns.markers) {
        const cells = { alleles: listPositions(row.cells[column.index] ?? ''), heights: list(column.height), sizes: list(column.size) };
        builder.addRunMarker(sample, run, column.name, cells, row.line);
      }
      return;
    }
    const sample = builder.newSample(name, row.line);
    for (const column of columns.markers) builder.addMarker(sample, column.name, [row.cells[column.index] ?? ''], row.line, 'merge');
  });
}
