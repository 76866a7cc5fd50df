import { csvText } from '../csv';
import type { ExportableProfile, ExportableReplicate } from './types';

/** Fewest allele columns written, so a reference table has the usual Allele 1, Allele 2. */
const MIN_ALLELE_COLUMNS = 2;

/**
 * Writes profiles as a long CSV table (`Sample Name,Marker,Allele 1…n`, the layout GeneMapper, LRmix and
 * EuroForMix read), one row per typed marker, quoted per RFC 4180 with CRLF line ends.
 */
export function profilesToCsv(profiles: readonly ExportableProfile[]): string {
  if (profiles.some((p) => (p.replicates?.length ?? 0) > 0)) return withHeights(profiles);
  const typed = profiles.flatMap((p) => p.markerValues.filter((m) => m.alleles.length > 0).map((m) => ({ sample: p.profileId, ...m })));
  const width = Math.max(MIN_ALLELE_COLUMNS, ...typed.map((m) => m.alleles.length));
  const header = ['Sample Name', 'Marker', ...Array.from({ length: width }, (_, i) => `Allele ${i + 1}`)];
  const rows = typed.map((m) => [m.sample, m.marker, ...Array.from({ length: width }, (_, i) => m.alleles[i] ?? '')]);
  return csvText([header, ...rows]);
}

/** One row of the table with heights: the sample, its run, the marker and the peaks. */
interface PeakRow {
  sample: string;
  run: string;
  marker: string;
  peaks: readonly { allele: string; height: number | null; size: number | null }[];
}

/** A profile's rows: one per replicate and marker; marker values no replicate holds go with the first run, without heights. */
function peakRows(p: ExportableProfile): PeakRow[] {
  const replicates: readonly ExportableReplicate[] = p.replicates?.length ? p.replicates : [{ name: p.profileId, markers: [] }];
  const covered = new Set(replicates.flatMap((r) => r.markers.map((m) => m.marker)));
  const rows = replicates.flatMap((r) =>
    r.markers.map((m) => ({ sample: p.profileId, run: r.name, marker: m.marker, peaks: m.peaks.map((x) => ({ allele: x.allele, height: x.height, size: x.sizeSource === 'kit' ? null : x.size })) })),
  );
  const rest = p.markerValues.filter((m) => m.alleles.length > 0 && !covered.has(m.marker));
  return [...rows, ...rest.map((m) => ({ sample: p.profileId, run: replicates[0]!.name, marker: m.marker, peaks: m.alleles.map((allele) => ({ allele, height: null, size: null })) }))];
}

/**
 * With peak heights (issue 31): `Sample Name,Sample File,Marker,Allele 1…n,Height 1…n,Size 1…n`, GeneMapper's genotypes
 * layout, one row per replicate (as Sample File) and marker, so Locus's import reads the same replicates back.
 */
function withHeights(profiles: readonly ExportableProfile[]): string {
  const rows = profiles.flatMap(peakRows);
  const width = Math.max(MIN_ALLELE_COLUMNS, ...rows.map((r) => r.peaks.length));
  const numbered = (title: string) => Array.from({ length: width }, (_, i) => `${title} ${i + 1}`);
  const header = ['Sample Name', 'Sample File', 'Marker', ...numbered('Allele'), ...numbered('Height'), ...numbered('Size')];
  const cells = (r: PeakRow, value: (x: PeakRow['peaks'][number]) => string) => Array.from({ length: width }, (_, i) => (r.peaks[i] ? value(r.peaks[i]) : ''));
  const body = rows.map((r) => [r.sample, r.run, r.marker, ...cells(r, (x) => x.allele), ...cells(r, (x) => (x.height === null ? '' : String(x.height))), ...cells(r, (x) => (x.size === null ? '' : String(x.size)))]);
  return csvText([header, ...body]);
}
