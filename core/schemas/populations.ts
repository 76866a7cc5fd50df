import { z } from 'zod';
import { Id } from './common';
import { Versioned } from './list';
import { requiredText } from './named-record';

/** What a population holds: allele frequencies per marker (autosomal) or a haplotype table (Y-STR). */
export const POPULATION_KINDS = ['Autosomal', 'YStr'] as const;
export const PopulationKind = z.enum(POPULATION_KINDS);
export type PopulationKind = z.infer<typeof PopulationKind>;
export const POPULATION_KIND_LABELS: Record<PopulationKind, string> = { Autosomal: 'Autosomal', YStr: 'Y-STR' };

/** GENETICS.md: without N, an absent or rare allele gets the population's minimum (default 0.001). */
export const DEFAULT_MINIMUM_ALLELE_FREQUENCY = 0.001;
const MINIMUM_FREQUENCY_MESSAGE = 'Enter a frequency greater than 0 and less than 1';
export const MinimumAlleleFrequency = z
  .number({ error: MINIMUM_FREQUENCY_MESSAGE })
  .gt(0, MINIMUM_FREQUENCY_MESSAGE)
  .lt(1, MINIMUM_FREQUENCY_MESSAGE);

/**
 * The population form (SPA) and the body of an update. Who may share with which organizations
 * depends on the user, so the server checks that (spec 6), not the schema.
 */
export const PopulationInput = z.object({
  name: requiredText(),
  kind: PopulationKind,
  minimumAlleleFrequency: MinimumAlleleFrequency,
  organizationIds: z.array(Id).max(500),
});
export type PopulationInput = z.infer<typeof PopulationInput>;

/** POST /populations: the minimum allele frequency may be left out (0.001). */
export const CreatePopulationBody = PopulationInput.extend({ minimumAlleleFrequency: MinimumAlleleFrequency.optional() });
export type CreatePopulationBody = z.infer<typeof CreatePopulationBody>;

/** PUT /populations/{id}: organizationIds left out keeps the current list. */
export const UpdatePopulationBody = PopulationInput.extend({ organizationIds: PopulationInput.shape.organizationIds.optional() }).extend(Versioned.shape);
export type UpdatePopulationBody = z.infer<typeof UpdatePopulationBody>;

const OrganizationName = z.object({ id: Id, name: z.string() });

/** How much a population's statistics hold, for the edit screen's summary. */
export const StatisticsSummary = z.object({
  markerCount: z.number().int(),
  alleleCount: z.number().int(),
  /** Distinct haplotypes (Y-STR) and the men they stand for (sum of counts). */
  haplotypeCount: z.number().int(),
  haplotypeTotal: z.number().int(),
  /** Smallest and largest N over the markers, null when the source gave none. */
  sampleSizeMin: z.number().int().nullable(),
  sampleSizeMax: z.number().int().nullable(),
});
export type StatisticsSummary = z.infer<typeof StatisticsSummary>;

/** A population as lists and the edit screen show it (spec 3: name, dateCreated, organizations, statistics). */
export const Population = z
  .object({
    id: Id,
    name: z.string(),
    kind: PopulationKind,
    minimumAlleleFrequency: z.number(),
    /** The uploaded file's name and format; empty until statistics are uploaded. */
    source: z.string(),
    statisticsUploadedAt: z.iso.datetime().nullable(),
    /** Generated frequencies (the demo population): never in automatic searches, labelled wherever shown. */
    synthetic: z.boolean(),
    organizations: z.array(OrganizationName),
    statistics: StatisticsSummary,
    version: z.number().int(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Population' });
export type Population = z.infer<typeof Population>;

export const AlleleFrequency = z.object({ allele: z.string(), frequency: z.number() });
export type AlleleFrequency = z.infer<typeof AlleleFrequency>;

/** One marker's stored frequencies; `sampleSize` is N when the source stated it. */
export const MarkerStatistics = z.object({
  markerId: Id,
  marker: z.string(),
  sampleSize: z.number().int().nullable(),
  alleles: z.array(AlleleFrequency),
});
export type MarkerStatistics = z.infer<typeof MarkerStatistics>;

/** A Y-STR haplotype: values by marker id (multi-copy markers hold several) and how often it was seen. */
export const HaplotypeRow = z.object({ values: z.record(z.string(), z.array(z.string())), count: z.number().int() });
export type HaplotypeRow = z.infer<typeof HaplotypeRow>;

/**
 * GET /populations/{id}/statistics: per-marker frequencies (autosomal; Y-STR markers list the
 * haplotype table's columns) and one page of haplotypes (Y-STR; `page`/`pageSize` query).
 */
export const PopulationStatistics = z
  .object({
    kind: PopulationKind,
    source: z.string(),
    markers: z.array(MarkerStatistics),
    haplotypes: z.array(HaplotypeRow),
    haplotypeCount: z.number().int(),
  })
  .meta({ id: 'PopulationStatistics' });
export type PopulationStatistics = z.infer<typeof PopulationStatistics>;

export const HaplotypePageQuery = z.object({
  page: z.coerce.number().int().min(0).default(0),
  pageSize: z.coerce.number().int().min(1).max(500).default(50),
});

/** A problem in an uploaded file; `row` is the file's 1-based line (null when it concerns the whole file). */
export const FrequencyIssue = z.object({ row: z.number().int().nullable(), marker: z.string().optional(), message: z.string() });
export type FrequencyIssue = z.infer<typeof FrequencyIssue>;

/** One marker of an uploaded file as the preview shows it: N, its alleles and their sum. */
export const PreviewMarker = z.object({
  markerId: Id,
  marker: z.string(),
  sampleSize: z.number().int().nullable(),
  alleles: z.array(AlleleFrequency),
  /** Sum of the frequencies (about 1; GENETICS.md allows 1 ± 0.02). */
  sum: z.number(),
});
export type PreviewMarker = z.infer<typeof PreviewMarker>;

/**
 * POST /populations/{id}/statistics/preview: what saving the file would store. Nothing is saved;
 * Save statistics is possible only while `errors` is empty. For a Y-STR haplotype table the
 * markers show how often each value occurs among the haplotypes.
 */
export const StatisticsPreview = z
  .object({
    fileName: z.string(),
    kind: PopulationKind,
    format: z.string(),
    /** The population read from the file, and every one it holds (a file with several needs a choice). */
    population: z.string().nullable(),
    populations: z.array(z.string()),
    markers: z.array(PreviewMarker),
    haplotypeCount: z.number().int(),
    haplotypeTotal: z.number().int(),
    errors: z.array(FrequencyIssue),
    warnings: z.array(FrequencyIssue),
  })
  .meta({ id: 'StatisticsPreview' });
export type StatisticsPreview = z.infer<typeof StatisticsPreview>;

/** "Row 12, D3S1358: frequency 1.5 is not in (0, 1]" — how the preview lists one problem. */
export function describeIssue(issue: FrequencyIssue): string {
  const where = [issue.row !== null ? `Row ${issue.row}` : null, issue.marker ?? null].filter(Boolean).join(', ');
  return where ? `${where}: ${issue.message}` : issue.message;
}

/**
 * Orders allele designations as labs read them: by repeat number, then microvariant (9 < 9.3 < 10),
 * `<n` before and `>n` after n, text (X, Y, OL) after numbers. Designations stay text (GENETICS.md).
 */
export function compareAlleles(a: string, b: string): number {
  const key = (allele: string): [number, number, string] => {
    const m = /^([<>]?)(\d+(?:\.\d+)?)$/.exec(allele.trim());
    if (!m) return [Number.POSITIVE_INFINITY, 0, allele];
    return [Number(m[2]), m[1] === '<' ? -1 : m[1] === '>' ? 1 : 0, allele];
  };
  const [an, ab, at] = key(a);
  const [bn, bb, bt] = key(b);
  if (an !== bn) return an < bn ? -1 : 1;
  if (ab !== bb) return ab - bb;
  return at.localeCompare(bt);
}

/** Files the upload offers to pick (the parser recognises the format from the content). */
export const STATISTICS_FILE_TYPES = '.csv,.tsv,.txt,.fam,.xml,.xlsx';
