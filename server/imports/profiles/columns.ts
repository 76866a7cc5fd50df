import { HAPLOTYPE_INFO_HEADERS, headerKey } from '../frequencies/header-names';
import type { MarkerResolver, ResolvedMarker } from './types';

// Column titles of profile tables as the example files spell them (FORMATS.md §2): Sample Name, SampleName,
// Sample.Name (R), specimenId (CODIS export); Allele 1, Allele1, Allele.1; Height/Size/Data Point groups.

/** A header cell with quotes dropped, lower case, and any run of spaces, dots or underscores read as one space. */
function words(cell: string): string {
  return cell.replace(/["']/g, '').trim().toLowerCase().replace(/[\s._]+/g, ' ');
}

// Only a single separator may split the words, so a misspelt `Sam pleName` is not taken for the sample column.
/** Titles of the column naming the sample, best first; UD1 holds the id in some LIMS exports (FORMATS.md §2a). */
const SAMPLE_COLUMNS = [/^sample ?name$/, /^specimen ?id$/, /^sample ?id$/, /^sample$/, /^ud1$/];

/** The column naming the sample: the first title of SAMPLE_COLUMNS the header has; null when it has none. */
export function findSampleColumn(header: readonly string[]): number | null {
  const titles = header.map(words);
  for (const pattern of SAMPLE_COLUMNS) {
    const index = titles.findIndex((t) => pattern.test(t));
    if (index >= 0) return index;
  }
  return null;
}

/** The column naming the run (GeneMapper's Sample File), which tells two runs of one sample name apart. */
export function findRunColumn(header: readonly string[]): number | null {
  const index = header.findIndex((cell) => /^sample ?file( ?name)?$/.test(words(cell)));
  return index >= 0 ? index : null;
}

/** The marker column of a long table. */
export function findMarkerColumn(header: readonly string[]): number | null {
  const index = header.findIndex((cell) => /^(marker|locus|loci|system)$/.test(words(cell)));
  return index >= 0 ? index : null;
}

/** The allele columns of a long table (`Allele 1`…`Allele n`, or one `Alleles` column holding a list). */
export function findAlleleColumns(header: readonly string[]): number[] {
  return header.flatMap((cell, index) => (/^alleles?( ?\d+)?$/.test(words(cell)) ? [index] : []));
}

/** Peak measures GeneMapper exports beside the alleles (Height, Size, Data Point, Area, optionally numbered); never read. */
export function isMeasureColumn(cell: string): boolean {
  return /^(peak )?(height|size|data ?point|area)( ?\d+)?$/.test(words(cell));
}

/** Columns that describe the sample or the run rather than a marker. */
const INFO_COLUMNS = new Set([
  ...HAPLOTYPE_INFO_HEADERS,
  'samplefile', 'samplefilename', 'casenumber', 'caseno', 'caseid', 'case', 'panel', 'dye', 'ud1', 'ud2', 'ud3',
  'sampletype', 'specimencategory', 'run', 'runname', 'well', 'plate', 'injection', 'file', 'filename', 'date', 'analyst',
]);

/** Whether a column describes the sample or run (Sample File, Case Number, Population…), so it is not a marker. */
export function isInfoColumn(cell: string): boolean {
  return INFO_COLUMNS.has(headerKey(cell));
}

/** Suffixes that number the copies of one marker's columns: `D3S1358(2)` (STRmix), `CSF1PO_1` … `_6` (CODIS export). */
const COPY_SUFFIX = [/^(.+?)\s*\(\d+\)$/, /^(.+?)_\d+$/];

/**
 * The marker a wide table's column holds: the title itself, or the title without a copy suffix.
 * `name` is the spelling to report when the marker is unknown (the title without its suffix).
 */
export function markerOfColumn(cell: string, resolve: MarkerResolver): { name: string; marker: ResolvedMarker | undefined } {
  const title = cell.trim();
  const whole = resolve(title);
  if (whole) return { name: title, marker: whole };
  for (const pattern of COPY_SUFFIX) {
    const base = pattern.exec(title)?.[1]?.trim();
    if (base) return { name: base, marker: resolve(base) };
  }
  return { name: title, marker: undefined };
}

/** The number a column title ends with (`Allele 3`, `Height3`, `Size.3`), or null. */
function columnNumber(cell: string, kind: RegExp): number | null {
  const match = kind.exec(words(cell));
  return match?.[1] === undefined ? null : Number(match[1]);
}

/**
 * For each allele column of a long table, its `Height k` and `Size k` columns, paired by the number k, never by position
 * (FORMATS.md §2a: grouped by kind or interleaved). Null entries where the file has no such column.
 */
export function findPeakColumns(header: readonly string[], alleleColumns: readonly number[]): PeakColumns | null {
  const byNumber = (kind: RegExp) => {
    const found = new Map<number, number>();
    header.forEach((cell, index) => {
      const k = columnNumber(cell, kind);
      if (k !== null && !found.has(k)) found.set(k, index);
    });
    return found;
  };
  const heights = byNumber(/^(?:peak )?height ?(\d+)$/);
  if (heights.size === 0) return null;
  const sizes = byNumber(/^size ?(\d+)$/);
  const alleleNumber = alleleColumns.map((index) => columnNumber(header[index] ?? '', /^alleles? ?(\d+)$/));
  // A `Height k` with no `Allele k` still counts: a value there is a height beside no allele, reported, not ignored.
  const orphans = [...heights.keys()].filter((k) => !alleleNumber.includes(k));
  const slots = [...alleleNumber, ...orphans];
  return {
    alleles: [...alleleColumns, ...orphans.map(() => null)],
    heights: slots.map((k) => (k === null ? null : (heights.get(k) ?? null))),
    sizes: slots.map((k) => (k === null ? null : (sizes.get(k) ?? null))),
  };
}

/** A long table's peak columns, slot by slot: the allele column (null for a height with no allele column), its height and size. */
export interface PeakColumns {
  alleles: (number | null)[];
  heights: (number | null)[];
  sizes: (number | null)[];
}

/** Whether a wide table's column is the `Height` (or `Size`) column that follows a marker column (FORMATS.md §2b). */
export function peakColumnKind(cell: string): 'height' | 'size' | null {
  const title = words(cell);
  return /^(peak )?height$/.test(title) ? 'height' : title === 'size' ? 'size' : null;
}
