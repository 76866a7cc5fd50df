import { z } from 'zod';
import { ContinuousCandidateFigures } from './continuous-model';
import { Id } from './common';

/** Where an exact probability lies: between `lower` and `upper` (rounding the log10 grid down and up). */
export const Bracket = z.object({ lower: z.number(), upper: z.number() }).meta({ id: 'Bracket' });
export type Bracket = z.infer<typeof Bracket>;

/** What a hit says of its profiles (ARCHITECTURE.md "Hits"): the same source, relatives, or not excluded as relatives. */
export const MATCH_KINDS = ['identity', 'kinship', 'exclusion', 'mixture'] as const;
export type MatchKind = (typeof MATCH_KINDS)[number];
export const MATCH_KIND_LABELS: Record<MatchKind, string> = { identity: 'Identity (the same source)', kinship: 'Kinship (relatives)', exclusion: 'Not excluded as relatives', mixture: 'Possible contributor to a mixture (LR)' };

/**
 * The chance of a hit like this among unrelated profiles (GENETICS.md "Expected chance hits"): the
 * probability that an unrelated profile reaches the threshold (bracketed: the exact value lies between
 * `lower` and `upper`, the reported one is `upper`), times the profiles searched.
 */
export const ChanceFigures = z
  .object({
    /** Profiles the search compared the query with (N). */
    searchedProfiles: z.number().int(),
    /** The log10 LR a candidate had to reach (null: a stringency rule or an exclusion count decided). */
    thresholdLog10: z.number().nullable(),
    /** P(an unrelated profile reaches the threshold), upper bound, and its bracket. */
    probability: z.number(),
    probabilityBracket: Bracket,
    /** N × probability. */
    expectedChanceHits: z.number(),
    /** P(an unrelated profile scores at least this LR), upper bound, and its bracket; null where no LR was computed. */
    pValue: z.number().nullable(),
    pValueBracket: Bracket.nullable(),
    /** Width of the log10 grid the distribution was computed on (the bracket comes from rounding down and up). */
    gridStep: z.number(),
  })
  .meta({ id: 'ChanceFigures' });
export type ChanceFigures = z.infer<typeof ChanceFigures>;

/** One population's result for a hit's profiles: the combined index (or exclusion counts) and its chance figures. */
export const PopulationFigures = z
  .object({
    populationId: Id.nullable(),
    populationName: z.string().nullable(),
    /** Generated frequencies (the demo population): not for casework, and labelled so. */
    synthetic: z.boolean(),
    combinedIndex: z.number().nullable(),
    log10: z.number().nullable(),
    markerCount: z.number().int(),
    nonExclusionMarkerCount: z.number().int().nullable(),
    /** Spec 4 "Hit probability display". */
    probability: z.string(),
    /** The population the hit reports (the smallest LR). */
    reported: z.boolean(),
    chance: ChanceFigures.nullable(),
    /** Pedigree hits (issue 16): the markers consistent with the family only through a mutation. */
    markersNeedingMutation: z.array(z.string()).nullish(),
    /** Continuous-model mixture hits (issue 31): the scan's LR at Hd's fit and the exact one (combinedIndex) with the parameters of both fits. */
    continuous: ContinuousCandidateFigures.nullish(),
  })
  .meta({ id: 'PopulationFigures' });
export type PopulationFigures = z.infer<typeof PopulationFigures>;

/** A CODIS identity rule's counts (GENETICS.md "Database search"), with the chance that an unrelated profile satisfies them. */
export const StringencyFigures = z
  .object({
    stringency: z.enum(['high', 'moderate', 'low']),
    comparedMarkers: z.number().int(),
    mismatches: z.number().int(),
    minMarkers: z.number().int(),
    maxMismatches: z.number().int(),
    /** P(an unrelated profile satisfies the stringency with the query), exact (Poisson-binomial). */
    probability: z.number(),
    searchedProfiles: z.number().int(),
    expectedChanceHits: z.number(),
  })
  .meta({ id: 'StringencyFigures' });
export type StringencyFigures = z.infer<typeof StringencyFigures>;

/** What a hit holds besides spec 3's fields: every population side by side and the stringency counts. */
export const HitFigures = z
  .object({
    populations: z.array(PopulationFigures),
    stringency: StringencyFigures.nullable(),
    /** The rule's populations that weighed nothing for these profiles, and why (issue 30); absent on hits from before. */
    skippedPopulations: z.array(z.object({ populationId: Id, populationName: z.string(), reason: z.string() })).optional(),
  })
  .meta({ id: 'HitFigures' });
export type HitFigures = z.infer<typeof HitFigures>;
