import { z } from 'zod';
import { Id } from './common';
import { MAX_PAGE_SIZE } from './list';

// Database self-comparison (issue 15): a quality check a laboratory runs before an audit — every pair
// of one chemistry's approved profiles in an organization (or every organization, scope All)
// compared for duplicates and near-duplicates. Definitions: server/matching/self-comparison.ts.

export const SELF_COMPARISON_MAX_DIFFERENCES = 3;

export const SelfComparisonStart = z.object({
  chemistryId: Id,
  /** Differences a near-duplicate may have (0 = duplicates only). */
  maxDifferences: z.number().int().min(0).max(SELF_COMPARISON_MAX_DIFFERENCES).default(2),
  /** Equal markers a reported pair needs at least, so two poor partial profiles are not called duplicates. */
  minEqualMarkers: z.number().int().min(1).max(99).default(10),
});
export type SelfComparisonStart = z.infer<typeof SelfComparisonStart>;

export const SELF_COMPARISON_STATES = ['running', 'done', 'failed', 'cancelled'] as const;
export type SelfComparisonState = (typeof SELF_COMPARISON_STATES)[number];

export const SelfComparisonJob = z
  .object({
    id: Id,
    /** The organization compared, or `all` (scope All). */
    organizationId: z.string(),
    chemistryId: Id,
    chemistryName: z.string(),
    maxDifferences: z.number().int(),
    minEqualMarkers: z.number().int(),
    state: z.enum(SELF_COMPARISON_STATES),
    /** What the job does now: copying the columns, grouping blocks, verifying pairs, looking up names, or finished. */
    phase: z.enum(['preparing', 'comparing', 'listing', 'finished']),
    blocksDone: z.number().int(),
    blocksTotal: z.number().int(),
    pairsVerified: z.number().int(),
    pairsFound: z.number().int(),
    /** Profiles compared (approved, in scope, with at least minEqualMarkers typed markers); null until known. */
    profilesCompared: z.number().int().nullable(),
    /** Profiles in scope left out for fewer typed markers than minEqualMarkers. */
    tooFewMarkers: z.number().int().nullable(),
    /** Mixtures (3+ alleles at a marker) left out: a self-comparison looks for single-source profiles entered twice. */
    mixturesLeftOut: z.number().int().nullable(),
    duplicateCount: z.number().int(),
    nearDuplicateCount: z.number().int(),
    /** More pairs than the report keeps (100,000): the list holds the first ones. */
    truncated: z.boolean(),
    startedBy: z.string(),
    startedAt: z.iso.datetime(),
    finishedAt: z.iso.datetime().nullable(),
    /** Wall time of the comparison itself (ms), when finished. */
    elapsedMs: z.number().nullable(),
    message: z.string().nullable(),
  })
  .meta({ id: 'SelfComparisonJob' });
export type SelfComparisonJob = z.infer<typeof SelfComparisonJob>;

export const SelfComparisonProfile = z.object({
  id: Id,
  sampleName: z.string(),
  caseId: Id,
  caseNumber: z.string(),
  sampleType: z.string(),
});
export type SelfComparisonProfile = z.infer<typeof SelfComparisonProfile>;

export const SelfComparisonPair = z
  .object({
    kind: z.enum(['duplicate', 'near-duplicate']),
    equalMarkers: z.number().int(),
    first: SelfComparisonProfile,
    second: SelfComparisonProfile,
    /** Each differing marker with both genotypes (null: not typed in that profile). */
    differences: z.array(z.object({ marker: z.string(), first: z.array(z.string()).nullable(), second: z.array(z.string()).nullable() })),
  })
  .meta({ id: 'SelfComparisonPair' });
export type SelfComparisonPair = z.infer<typeof SelfComparisonPair>;

export const SelfComparisonPairsQuery = z.object({
  page: z.coerce.number().int().min(0).default(0),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(50),
  kind: z.enum(['all', 'duplicate', 'near-duplicate']).default('all'),
});
export type SelfComparisonPairsQuery = z.infer<typeof SelfComparisonPairsQuery>;
