import { z } from 'zod';
import { ALL_ORGANIZATIONS } from '../permissions';
import { AnalysisFigures } from './analysis-figures';
import { Id } from './common';
import { Bracket } from './hit-figures';
import { MarkerValueInput } from './profiles';

/** CODIS search stringency (GENETICS.md "Database search"). */
export const STRINGENCIES = ['high', 'moderate', 'low'] as const;

/** What the keyboard search sends (spec 2.6, 7.1 `get-all-possible-hits`: values and populations). */
export const KeyboardSearchBody = z.object({
  /**
   * The organization searched: the user's Profiles Read there is checked, only its profiles are compared, and its audit
   * trail records the search; `all` (scope All only) searches every organization.
   */
  organizationId: z.union([Id, z.literal(ALL_ORGANIZATIONS)]),
  chemistryId: Id,
  markerValues: z.array(MarkerValueInput).min(1, 'Type at least one marker').max(200),
  populationIds: z.array(Id).max(10, 'At most 10 populations at once'),
  stringency: z.enum(STRINGENCIES).default('moderate'),
  /** Fewest markers typed in both profiles for a stringency candidate. */
  minMarkers: z.number().int().min(1, 'At least 1').max(100).default(8),
  maxMismatches: z.number().int().min(0, 'Cannot be negative').max(10, 'At most 10').default(0),
  /**
   * The analyses run besides the stringency search: each scans the approved profiles against its threshold and is
   * weighed for every candidate shown. Absent: the same-source analyses of the chemistry's kind (Identity, Y-STR
   * haplotype frequency), the figures a laboratory reads a keyboard-search candidate by; kinship and exclusion
   * analyses run only when named (a familial search is a deliberate request, ARCHITECTURE.md "Search policy").
   * Empty: the stringency search alone. Each must be an active two-role analysis of the kind with a threshold
   * (GET profiles/keyboard-search-analyses lists them).
   */
  analysisIds: z.array(Id).max(50, 'At most 50 analyses at once').optional(),
});
export type KeyboardSearchBody = z.infer<typeof KeyboardSearchBody>;

/** One analysis over one population (null for exclusion analyses) for a candidate. */
export const KeyboardSearchResult = z.object({
  ...AnalysisFigures.shape,
  /** Whether the analysis threshold is met, i.e. a database search would record a hit. */
  overThreshold: z.boolean(),
  /** The population is synthetic (demo data): not for casework. */
  synthetic: z.boolean(),
  /** P(an unrelated profile scores at least this LR), upper end of its bracket; null where no LR distribution applies (exclusion, Y-STR). */
  pValue: z.number().nullable(),
  pValueBracket: Bracket.nullable(),
});

/** A stored profile the typed-in one may match. */
export const KeyboardSearchCandidate = z
  .object({
    profileId: Id,
    sampleName: z.string(),
    caseId: Id,
    caseNumber: z.string(),
    /** Compared markers and mismatches under the chosen stringency; `stringencyMet` when within the limits. */
    comparedMarkers: z.number().int(),
    mismatches: z.number().int(),
    stringencyMet: z.boolean(),
    results: z.array(KeyboardSearchResult),
  })
  .meta({ id: 'KeyboardSearchCandidate' });
export type KeyboardSearchCandidate = z.infer<typeof KeyboardSearchCandidate>;

/** Per chosen population: the chance that an unrelated profile meets the stringency, and the chance candidates expected among those searched. */
export const KeyboardSearchChance = z
  .object({
    populationId: Id,
    populationName: z.string(),
    synthetic: z.boolean(),
    /** P(an unrelated profile meets the stringency), exact (Poisson-binomial over the markers). */
    probability: z.number(),
    expectedChanceHits: z.number(),
  })
  .meta({ id: 'KeyboardSearchChance' });
export type KeyboardSearchChance = z.infer<typeof KeyboardSearchChance>;

export const KeyboardSearchAnswer = z
  .object({
    /** The strongest candidates, at most `candidateLimit`: by strength, then fewest mismatches, most compared markers, sample name. */
    candidates: z.array(KeyboardSearchCandidate),
    /** More candidates were found than are listed (`notShown` > 0). */
    truncated: z.boolean(),
    /** Every profile the search found (stringency candidates and analysis results over their thresholds), listed or not. */
    candidateCount: z.number().int(),
    /** Candidates found but not listed: candidateCount − candidates listed. */
    notShown: z.number().int(),
    /** Most candidates an answer lists. */
    candidateLimit: z.number().int(),
    /** Most candidates each scan keeps (the stringency search, and each analysis over each population) before any is named: the work's bound. */
    scanLimit: z.number().int(),
    /** Approved profiles of the kind in the organizations the user reaches (N). */
    searchedProfiles: z.number().int(),
    chance: z.array(KeyboardSearchChance),
    /**
     * Where the search stood when it was asked (ARCHITECTURE.md "Using every core"): 0 when a search thread was free,
     * else its place in the threads' queue (1: next). The server answered other requests while it waited.
     */
    queuePosition: z.number().int(),
  })
  .meta({ id: 'KeyboardSearchAnswer' });
export type KeyboardSearchAnswer = z.infer<typeof KeyboardSearchAnswer>;

/** An analysis the keyboard search can run for a kind: active, two roles, with a threshold (not a mixture or pedigree analysis). */
export const KeyboardSearchAnalysis = z
  .object({
    id: Id,
    name: z.string(),
    label: z.string(),
    kind: z.enum(['Computational', 'Exclusion']),
    /** A same-source analysis (no relationship constants): run when the search names no analyses, so the form ticks it first. */
    byDefault: z.boolean(),
  })
  .meta({ id: 'KeyboardSearchAnalysis' });
export type KeyboardSearchAnalysis = z.infer<typeof KeyboardSearchAnalysis>;

export const KeyboardSearchAnalysesQuery = z.object({ kind: z.enum(['Autosomal', 'YStr']) });
export const KeyboardSearchAnalyses = z.object({ items: z.array(KeyboardSearchAnalysis) }).meta({ id: 'KeyboardSearchAnalyses' });
export type KeyboardSearchAnalyses = z.infer<typeof KeyboardSearchAnalyses>;
