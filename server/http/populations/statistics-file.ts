import { compareAlleles, type FrequencyIssue, type PopulationKind, type PreviewMarker, type StatisticsPreview } from '../../../core/schemas/populations';
import type { Db } from '../../db/database';
import { parseFrequencyFile, type Haplotype, type ParsedFrequencies } from '../../imports/frequencies';
import { BadRequest } from '../errors';
import { loadMarkerCatalogue, type MarkerCatalogue } from '../marker-catalogue';
import type { Upload } from './read-upload';
import type { StoredStatistics } from './replace-statistics';

const KIND_WORD: Record<PopulationKind, string> = { Autosomal: 'autosomal', YStr: 'Y-STR' };

/** A parsed statistics file: what the preview shows and, when it has no errors, what saving stores. */
export interface CheckedStatistics {
  preview: StatisticsPreview;
  statistics: StoredStatistics;
}

/**
 * Parses an uploaded file against the markers table (field `population` picks one of a file that
 * holds several) and checks it fits the population: a Y-STR haplotype table belongs in a Y-STR
 * population, allele frequencies of autosomal markers in an autosomal one. Problems are listed,
 * never guessed away; the caller decides whether to save.
 */
export async function checkStatisticsFile(db: Db, population: { name: string; kind: string }, upload: Upload): Promise<CheckedStatistics> {
  const kind: PopulationKind = population.kind === 'YStr' ? 'YStr' : 'Autosomal';
  const catalogue = await loadMarkerCatalogue(db);
  let parsed: ParsedFrequencies;
  try {
    parsed = await parseFrequencyFile({ fileName: upload.fileName, bytes: upload.bytes }, catalogue.resolve, {
      kind,
      ...(upload.fields.population ? { population: upload.fields.population } : {}),
    });
  } catch (err) {
    throw new BadRequest(`${upload.fileName} could not be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  const errors: FrequencyIssue[] = [...kindProblems(parsed, kind, population.name, upload.fileName, catalogue), ...parsed.errors.map(issue)];
  const base = {
    fileName: upload.fileName,
    kind,
    format: parsed.format,
    population: parsed.population,
    populations: parsed.populations,
    errors,
    warnings: parsed.warnings.map(issue),
  };

  if (parsed.kind === 'Autosomal') {
    const markers: PreviewMarker[] = parsed.markers.map((m) => ({
      markerId: m.markerId,
      marker: m.marker,
      sampleSize: m.sampleSize,
      alleles: [...m.alleles].sort((a, b) => compareAlleles(a.allele, b.allele)),
      sum: m.alleles.reduce((total, a) => total + a.frequency, 0),
    }));
    return {
      preview: { ...base, markers, haplotypeCount: 0, haplotypeTotal: 0 },
      statistics: { markers: markers.map(({ markerId, sampleSize, alleles }) => ({ markerId, sampleSize, alleles })), haplotypes: [] },
    };
  }
  const markers = parsed.markerIds.map((markerId, i) => valueFrequencies(markerId, parsed.markerNames[i] ?? markerId, parsed.haplotypes));
  return {
    preview: { ...base, markers, haplotypeCount: parsed.haplotypes.length, haplotypeTotal: parsed.haplotypes.reduce((t, h) => t + h.count, 0) },
    statistics: {
      markers: markers.map(({ markerId, sampleSize }) => ({ markerId, sampleSize, alleles: [] })),
      haplotypes: parsed.haplotypes.map((h) => ({ values: h.values, count: h.count })),
    },
  };
}

const issue = (e: { row: number | null; marker?: string; message: string }): FrequencyIssue =>
  e.marker === undefined ? { row: e.row, message: e.message } : { row: e.row, marker: e.marker, message: e.message };

function kindProblems(parsed: ParsedFrequencies, kind: PopulationKind, name: string, fileName: string, catalogue: MarkerCatalogue): FrequencyIssue[] {
  if (parsed.kind === 'YStr' && kind === 'Autosomal') {
    return [{ row: null, message: `${fileName} is a Y-STR haplotype table, but population "${name}" is autosomal. Upload it to a Y-STR population.` }];
  }
  if (parsed.kind === 'Autosomal' && kind === 'YStr') {
    return [{ row: null, message: `${fileName} holds allele frequencies, but Y-STR population "${name}" needs a haplotype table (one row per man).` }];
  }
  const ids = parsed.kind === 'YStr' ? parsed.markerIds : parsed.markers.map((m) => m.markerId);
  return ids.flatMap((id) => {
    const marker = catalogue.byId.get(id);
    return marker && marker.kind !== kind
      ? [{ row: null, marker: marker.name, message: `${marker.name} is a ${KIND_WORD[marker.kind]} marker, but population "${name}" is ${KIND_WORD[kind]}` }]
      : [];
  });
}

/** How often each value (a multi-copy set as "12,13") occurs at one marker among the haplotypes. */
function valueFrequencies(markerId: string, marker: string, haplotypes: readonly Haplotype[]): PreviewMarker {
  const counts = new Map<string, number>();
  let typed = 0;
  for (const h of haplotypes) {
    const values = h.values[markerId];
    if (!values || values.length === 0) continue;
    const key = [...values].sort(compareAlleles).join(',');
    counts.set(key, (counts.get(key) ?? 0) + h.count);
    typed += h.count;
  }
  const alleles = [...counts]
    .map(([allele, n]) => ({ allele, frequency: n / typed }))
    .sort((a, b) => compareAlleles(a.allele, b.allele));
  return { markerId, marker, sampleSize: typed, alleles, sum: alleles.length > 0 ? alleles.reduce((t, a) => t + a.frequency, 0) : 0 };
}
