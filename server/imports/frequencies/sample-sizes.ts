import { ALLELE_COUNT_HEADERS, ALLELE_HEADERS, FREQUENCY_HEADERS, INDIVIDUALS_HEADERS, MARKER_HEADERS, POPULATION_HEADERS, headerKey } from './header-names';
import { isBlank, readCount } from './numbers';
import type { Issues, MarkerFrequencies, MarkerResolver, Table } from './types';

/** The columns of a sample-size table such as fbi2015-n.csv: (population,) marker, n_alleles or N. */
interface SizeColumns {
  marker: number;
  population: number | null;
  size: number;
  countsAlleles: boolean;
}

/** Finds the columns of a sample-size table; null when the table also has alleles or frequencies (it is then a frequency table). */
function findSizeColumns(table: Table): SizeColumns | null {
  const keys = (table.rows[0]?.cells ?? []).map(headerKey);
  if (keys.some((k) => ALLELE_HEADERS.has(k) || FREQUENCY_HEADERS.has(k) || k.startsWith('freq'))) return null;
  const marker = keys.findIndex((k) => MARKER_HEADERS.has(k));
  const alleles = keys.findIndex((k) => ALLELE_COUNT_HEADERS.has(k));
  const individuals = keys.findIndex((k) => INDIVIDUALS_HEADERS.has(k));
  const size = alleles >= 0 ? alleles : individuals;
  if (marker < 0 || size < 0) return null;
  const population = keys.findIndex((k) => POPULATION_HEADERS.has(k));
  return { marker, population: population >= 0 ? population : null, size, countsAlleles: alleles >= 0 };
}

/** Whether a table only lists sample sizes per marker (the `-n` companions of fbi2015.csv and nist1036.csv). */
export function isSampleSizeTable(table: Table): boolean {
  return findSizeColumns(table) !== null;
}

// Allele counts (n_alleles) are halved and rounded down: fewer individuals gives the larger, more cautious minimum 5/(2N).
/** Sets each marker's N from a companion sample-size table (fbi2015-n.csv), for the population being read (it overrides an N the frequency file gives). */
export function applySampleSizes(
  markers: MarkerFrequencies[],
  table: Table,
  population: string | null,
  resolve: MarkerResolver,
  fileName: string,
  issues: Issues,
): void {
  const cols = findSizeColumns(table);
  if (!cols) {
    issues.errors.push({ row: null, message: `${fileName} is not a sample-size table (expected columns population, marker, n_alleles)` });
    return;
  }
  const popCol = cols.population;
  if (popCol !== null && population === null && new Set(table.rows.slice(1).map((r) => r.cells[popCol])).size > 1) {
    issues.errors.push({ row: null, message: `${fileName} gives sample sizes for several populations, but the frequency file names none` });
    return;
  }
  const sizes = new Map<string, number>();
  for (const row of table.rows.slice(1)) {
    if (cols.population !== null && population !== null && (row.cells[cols.population] ?? '').toLowerCase() !== population.toLowerCase()) continue;
    const marker = resolve(row.cells[cols.marker] ?? '');
    const cell = row.cells[cols.size];
    if (!marker || isBlank(cell)) continue;
    const n = readCount(cell);
    if (n === null) {
      issues.errors.push({ row: row.line, marker: marker.name, message: `${fileName}: sample size "${cell}" of ${marker.name} is not a positive whole number` });
      continue;
    }
    sizes.set(marker.id, cols.countsAlleles ? Math.floor(n / 2) : n);
  }
  for (const m of markers) {
    const n = sizes.get(m.markerId);
    if (n !== undefined) m.sampleSize = n;
  }
}

/**
 * Names each marker left without N when the upload gives N for others (a column, a row or a companion
 * file): GENETICS.md's minimum frequency 5/(2N) cannot apply to it, so the population's minimum does.
 */
export function reportMissingSampleSizes(markers: readonly MarkerFrequencies[], fileName: string, issues: Issues): void {
  if (markers.length === 0) return;
  if (!markers.some((m) => m.sampleSize !== null)) {
    // Said once for the file: without N the NRC II floor 5/(2N) never applies, which a user would not guess.
    issues.warnings.push({
      row: null,
      message:
        `${fileName} gives no sample size (N) for any marker, so 5/(2N) cannot apply: rare alleles get the population's minimum ` +
        'allele frequency. Add an N column, or choose the sample-size file as the N file (fbi2015-n.csv for fbi2015.csv)',
    });
    return;
  }
  for (const m of markers) {
    if (m.sampleSize !== null) continue;
    issues.warnings.push({
      row: null,
      marker: m.marker,
      message: `${m.marker} has no sample size (N): its rare alleles get the population's minimum allele frequency instead of 5/(2N)`,
    });
  }
}
