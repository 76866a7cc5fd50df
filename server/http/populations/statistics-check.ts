import {
  compareAlleles,
  type FrequencyIssue,
  type PopulationKind,
  type PreviewMarker,
  type StatisticsPreview,
  type StatisticsSummary,
} from '../../../core/schemas/populations';
import type { MarkerWithAliases } from '../../db/seed/reference/marker-names';
import type { Haplotype, ParsedFrequencies } from '../../imports/frequencies';

// Pure: runs in the statistics worker (statistics-worker.ts), beside the parser, so the main thread
// never walks a large table.

const KIND_WORD: Record<PopulationKind, string> = { Autosomal: 'autosomal', YStr: 'Y-STR' };

/** The population a file is uploaded to. */
export interface TargetPopulation {
  name: string;
  kind: PopulationKind;
}

/** A statistics file as it would be stored: the rows of population_markers, population_alleles and population_haplotypes. */
export interface StoredStatistics {
  markers: { markerId: string; sampleSize: number | null; alleles: { allele: string; frequency: number }[] }[];
  haplotypes: { values: Record<string, string[]>; count: number }[];
}

/** A parsed statistics file: what the preview shows and, when it has no errors, what saving stores. */
export interface CheckedStatistics {
  preview: StatisticsPreview;
  statistics: StoredStatistics;
}

/**
 * Checks a parsed file fits the population it is uploaded to: a Y-STR haplotype table belongs in a
 * Y-STR population, allele frequencies of autosomal markers in an autosomal one. Problems are
 * listed, never guessed away; the caller decides whether to save.
 */
export function checkParsed(parsed: ParsedFrequencies, fileName: string, population: TargetPopulation, catalogue: readonly MarkerWithAliases[]): CheckedStatistics {
  const { kind } = population;
  const errors: FrequencyIssue[] = [...kindProblems(parsed, population, fileName, catalogue), ...parsed.errors.map(issue)];
  const base = {
    fileName,
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
      haplotypes: parsed.haplotypes,
    },
  };
}

const issue = (e: { row: number | null; marker?: string; message: string }): FrequencyIssue =>
  e.marker === undefined ? { row: e.row, message: e.message } : { row: e.row, marker: e.marker, message: e.message };

function kindProblems(parsed: ParsedFrequencies, population: TargetPopulation, fileName: string, catalogue: readonly MarkerWithAliases[]): FrequencyIssue[] {
  const { name, kind } = population;
  if (parsed.kind === 'YStr' && kind === 'Autosomal') {
    return [{ row: null, message: `${fileName} is a Y-STR haplotype table, but population "${name}" is autosomal. Upload it to a Y-STR population.` }];
  }
  if (parsed.kind === 'Autosomal' && kind === 'YStr') {
    return [{ row: null, message: `${fileName} holds allele frequencies, but Y-STR population "${name}" needs a haplotype table (one row per man).` }];
  }
  const byId = new Map(catalogue.map((m) => [m.id, m]));
  const ids = parsed.kind === 'YStr' ? parsed.markerIds : parsed.markers.map((m) => m.markerId);
  return ids.flatMap((id) => {
    const marker = byId.get(id);
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

/**
 * Statistics as the INSERT statements of replace-statistics.ts read them: per table, JSON arrays of rows
 * (jsonb_to_recordset) as UTF-8, each at most `limit.rows` rows and about `limit.bytes`, so the database
 * parses each batch quickly and the worker hands bytes over without a copy (a transfer). Markers `{m, n}`,
 * alleles `{m, a, f}`, haplotypes `{v, c}`.
 */
export interface StatisticsBatches {
  markers: Uint8Array[];
  alleles: Uint8Array[];
  haplotypes: Uint8Array[];
}

/** How large one batch may grow. */
export interface BatchLimit {
  rows: number;
  bytes: number;
}

export function statisticsBatches(statistics: StoredStatistics, limit: BatchLimit): StatisticsBatches {
  const utf8 = new TextEncoder();
  const inBatches = <T>(rows: readonly T[]): Uint8Array[] => {
    const batches: Uint8Array[] = [];
    let batch: string[] = [];
    let bytes = 0;
    for (const row of rows) {
      const json = JSON.stringify(row);
      if (batch.length > 0 && (batch.length >= limit.rows || bytes + json.length > limit.bytes)) {
        batches.push(utf8.encode(`[${batch.join(',')}]`));
        batch = [];
        bytes = 0;
      }
      batch.push(json);
      bytes += json.length + 1;
    }
    if (batch.length > 0) batches.push(utf8.encode(`[${batch.join(',')}]`));
    return batches;
  };
  return {
    markers: inBatches(statistics.markers.map((m) => ({ m: m.markerId, n: m.sampleSize }))),
    alleles: inBatches(statistics.markers.flatMap((m) => m.alleles.map((a) => ({ m: m.markerId, a: a.allele, f: a.frequency })))),
    haplotypes: inBatches(statistics.haplotypes.map((h) => ({ v: h.values, c: h.count }))),
  };
}

/** The summary a population shows once these statistics are stored (population-view.ts counts the same from the tables). */
export function statisticsSummary(statistics: StoredStatistics): StatisticsSummary {
  const sizes = statistics.markers.flatMap((m) => (m.sampleSize === null ? [] : [m.sampleSize]));
  return {
    markerCount: statistics.markers.length,
    alleleCount: statistics.markers.reduce((n, m) => n + m.alleles.length, 0),
    haplotypeCount: statistics.haplotypes.length,
    haplotypeTotal: statistics.haplotypes.reduce((n, h) => n + h.count, 0),
    sampleSizeMin: sizes.length > 0 ? Math.min(...sizes) : null,
    sampleSizeMax: sizes.length > 0 ? Math.max(...sizes) : null,
  };
}
