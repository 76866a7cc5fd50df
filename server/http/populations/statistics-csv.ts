import type { PopulationStatistics } from '../../../core/schemas/populations';
import { csvCell } from '../../exports/csv';

const csvLine = (cells: readonly (string | number)[]) => cells.map(csvCell).join(',');

/**
 * A population's statistics as CSV: the long table `marker,allele,frequency` for allele frequencies;
 * for a Y-STR haplotype table one row per haplotype, `count` then one column per marker (a multi-copy
 * marker's values joined by commas in one quoted cell).
 */
export function statisticsCsv(statistics: PopulationStatistics): string {
  const lines =
    statistics.haplotypes.length > 0
      ? [
          csvLine(['count', ...statistics.markers.map((m) => m.marker)]),
          ...statistics.haplotypes.map((h) => csvLine([h.count, ...statistics.markers.map((m) => (h.values[m.markerId] ?? []).join(','))])),
        ]
      : [
          csvLine(['marker', 'allele', 'frequency']),
          ...statistics.markers.flatMap((m) => m.alleles.map((a) => csvLine([m.marker, a.allele, a.frequency]))),
        ];
  return `${lines.join('\r\n')}\r\n`;
}
