import { ALLELE_HEADERS, headerKey } from '../frequencies/header-names';
import type { Table } from '../frequencies/types';
import { findRunColumn, findSampleColumn } from './columns';
import { findLongColumns, type LongColumns } from './long-table';
import { findWideColumns, type WideColumns } from './wide-table';
import type { MarkerResolver } from './types';

/** How a table is laid out, with the format name the import reports; or why its header cannot be read. */
export type TableLayout =
  | { layout: 'long'; columns: LongColumns; format: string }
  | { layout: 'wide'; columns: WideColumns; format: string }
  | { layout: 'broken'; message: string };

/** Rows a frequency table's preamble takes before its `Allele` row (zeyad-2020-uae-ystrs.csv: STR, N, Allele). */
const FREQUENCY_PREAMBLE_ROWS = 5;

/** Rows detectTableLayout reads: the header, and a frequency table's preamble. */
export const HEAD_ROWS = FREQUENCY_PREAMBLE_ROWS;

/** Whether a text upload is XML (CMF); anything else is read as a delimited table. The file name is never trusted. */
export function isXml(text: string): boolean {
  return text.trimStart().startsWith('<');
}

/** Recognises a profile table from its header row (given at least its first HEAD_ROWS rows); null when it is no profile table at all. */
export function detectTableLayout(table: Table, resolve: MarkerResolver): TableLayout | null {
  const header = table.rows[0]?.cells ?? [];
  const container = table.container;
  const long = findLongColumns(header);
  if (long.columns) {
    const geneMapper = long.columns.run !== null || header.some((cell) => /^allele \d+$/i.test(cell));
    return { layout: 'long', columns: long.columns, format: `${geneMapper ? 'GeneMapper genotypes table' : 'Long profile table'} (${container})` };
  }
  const markerColumns = header.some((cell) => resolve(cell));
  // Allele × marker: an `Allele` column, or a `STR,<markers>` / `N,…` / `Allele,,,` preamble (FORMATS.md 4a, 4e).
  const alleleRow = table.rows.slice(0, FREQUENCY_PREAMBLE_ROWS).some((r) => ALLELE_HEADERS.has(headerKey(r.cells[0])));
  if (alleleRow && markerColumns) {
    return { layout: 'broken', message: 'This is an allele-frequency table (Allele × marker), not profiles; upload it to a population instead' };
  }
  if (long.hasMarkerAndAlleles || (findSampleColumn(header) === null && markerColumns)) {
    return { layout: 'broken', message: `The header has no sample name column (Sample Name, SampleName, Sample.Name or Specimen ID); it reads: ${header.join(', ')}` };
  }
  const wide = findWideColumns(header, resolve);
  if (wide === null) return null;
  if ('problem' in wide) return { layout: 'broken', message: wide.problem };
  const format = findRunColumn(header) !== null
    ? 'GeneMapper samples table'
    : header.some((cell) => /_\d+$/.test(cell)) ? 'CODIS database export' : 'Wide profile table';
  return { layout: 'wide', columns: wide.columns, format: `${format} (${container})` };
}
