import { alleleProblemAt } from './alleles';
import type { FrequencyRowError, MarkerFrequencies } from './types';

/** GENETICS.md: the frequencies of a marker must sum to 1 within this tolerance. */
export const SUM_TOLERANCE = 0.02;

/** Where the values being checked came from, so an error can name its row. */
export interface SourceRows {
  /** Row of the i-th allele of a marker. */
  alleleRow?: (markerId: string, index: number) => number | null;
  /** Row naming the marker (a column header, a block title), for marker-wide errors such as the sum. */
  markerRow?: (markerId: string) => number | null;
  /** Markers with cells already reported unreadable: their sum would only repeat that error. */
  skipSum?: ReadonlySet<string>;
}

/** Checks uploaded frequencies against GENETICS.md: each allele a designation the marker takes, each in (0, 1], no allele twice, per-marker sum 1 ± 0.02. */
export function validateFrequencies(markers: MarkerFrequencies[]): FrequencyRowError[] {
  return checkFrequencies(markers, {});
}

/** validateFrequencies with the rows the values came from, for parsers. */
export function checkFrequencies(markers: readonly MarkerFrequencies[], rows: SourceRows): FrequencyRowError[] {
  const errors: FrequencyRowError[] = [];
  for (const m of markers) {
    const rowOf = (i: number) => rows.alleleRow?.(m.markerId, i) ?? null;
    const markerRow = rows.markerRow?.(m.markerId) ?? null;
    if (m.alleles.length === 0) {
      errors.push({ row: markerRow, marker: m.marker, message: `${m.marker} has no allele frequencies` });
      continue;
    }
    let sound = true;
    const seen = new Set<string>();
    m.alleles.forEach(({ allele, frequency }, i) => {
      const problem = alleleProblemAt(allele, m.marker);
      if (problem) {
        sound = false;
        errors.push({ row: rowOf(i), marker: m.marker, message: `"${allele}" at ${m.marker} ${problem}` });
      }
      if (!Number.isFinite(frequency) || frequency <= 0 || frequency > 1) {
        sound = false;
        errors.push({
          row: rowOf(i),
          marker: m.marker,
          message: `Frequency ${frequency} of allele ${allele} at ${m.marker} is outside (0, 1]`,
        });
      }
      if (seen.has(allele)) {
        sound = false;
        errors.push({ row: rowOf(i), marker: m.marker, message: `Allele ${allele} appears more than once for ${m.marker}` });
      }
      seen.add(allele);
    });
    // A sum over bad or repeated values would only restate the errors above.
    if (!sound || rows.skipSum?.has(m.markerId)) continue;
    const sum = m.alleles.reduce((total, a) => total + a.frequency, 0);
    // The epsilon keeps a sum of exactly 0.98 (in decimal) from failing on binary rounding.
    if (Math.abs(sum - 1) > SUM_TOLERANCE + 1e-9) {
      errors.push({
        row: markerRow,
        marker: m.marker,
        message: `Frequencies of ${m.marker} sum to ${formatSum(sum)}; they must sum to 1 ± ${SUM_TOLERANCE}`,
      });
    }
  }
  return errors;
}

/** Four decimals at most, so a sum just outside the tolerance never prints as if it were inside. */
function formatSum(sum: number): string {
  return String(Number(sum.toFixed(4)));
}
