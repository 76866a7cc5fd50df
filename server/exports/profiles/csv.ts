import { csvText } from '../csv';
import type { ExportableProfile } from './types';

/** Fewest allele columns written, so a reference table has the usual Allele 1, Allele 2. */
const MIN_ALLELE_COLUMNS = 2;

/**
 * Writes profiles as a long CSV table (`Sample Name,Marker,Allele 1…n`, the layout GeneMapper, LRmix and
 * EuroForMix read), one row per typed marker, quoted per RFC 4180 with CRLF line ends.
 */
export function profilesToCsv(profiles: readonly ExportableProfile[]): string {
  const typed = profiles.flatMap((p) => p.markerValues.filter((m) => m.alleles.length > 0).map((m) => ({ sample: p.profileId, ...m })));
  const width = Math.max(MIN_ALLELE_COLUMNS, ...typed.map((m) => m.alleles.length));
  const header = ['Sample Name', 'Marker', ...Array.from({ length: width }, (_, i) => `Allele ${i + 1}`)];
  const rows = typed.map((m) => [m.sample, m.marker, ...Array.from({ length: width }, (_, i) => m.alleles[i] ?? '')]);
  return csvText([header, ...rows]);
}
