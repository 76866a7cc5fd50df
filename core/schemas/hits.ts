import { z } from 'zod';
import { ANALYSIS_KINDS, MarkerResult, ParentageConclusion } from './analyses';
import { AnalysisFigures } from './analysis-figures';
import { HitFigures, MATCH_KINDS } from './hit-figures';
import { Id } from './common';
import { ListQuery } from './list';
import { requiredText } from './named-record';
import { PROFILE_KINDS } from './profiles';

/** ARCHITECTURE.md "States": pending (Review) → published | rejected; published | rejected → pending (reset). */
export const HIT_STATUSES = ['pending', 'published', 'rejected'] as const;
export type HitStatus = (typeof HIT_STATUSES)[number];
export const HIT_STATUS_LABELS: Record<HitStatus, string> = { pending: 'Pending', published: 'Published', rejected: 'Rejected' };

/** The hit lists (spec 2.4 tabs) and the API collection each reads (spec 3 Case: hits, pendingHits, publishedHits, rejectedHits). */
export const HIT_LISTS = {
  pending: { collection: 'pending-hits', label: 'Review' },
  published: { collection: 'published-hits', label: 'Published' },
  rejected: { collection: 'rejected-hits', label: 'Rejected' },
  all: { collection: 'hits', label: 'All' },
} as const;
export type HitList = keyof typeof HIT_LISTS;

/** One profile of a hit in its analysis role: the sample name and its case (spec 3: analysisProfileId and profileId). */
export const HitProfile = z
  .object({
    role: z.string(),
    position: z.number().int(),
    profileId: Id,
    sampleName: z.string(),
    caseId: Id,
    caseNumber: z.string(),
    organizationId: Id,
    /** Who entered or imported the profile (null: unknown), for four-eyes review (core/four-eyes.ts). */
    enteredById: Id.nullable(),
  })
  .meta({ id: 'HitProfile' });
export type HitProfile = z.infer<typeof HitProfile>;

/** A row of the hit lists (spec 2.4: Date, Analysis, Probability, Population, Profiles), with the ids behind them. */
export const HitSummary = z
  .object({
    id: Id,
    version: z.number().int(),
    organizationId: Id,
    status: z.enum(HIT_STATUSES),
    /** When the search found it. */
    date: z.iso.datetime(),
    ...AnalysisFigures.shape,
    profiles: z.array(HitProfile),
    /** The search rule that found it (null: before search rules, or the rule was deleted). */
    searchRuleId: Id.nullable(),
    searchRuleName: z.string().nullable(),
    /** The missing-person family whose search found it (issue 16); null for rule searches. */
    familyId: Id.nullable(),
    familyName: z.string().nullable(),
    matchKind: z.enum(MATCH_KINDS),
    /** The reported population's expected chance hits at the threshold (a stringency rule: its own), and P(LR ≥ this LR | unrelated). */
    expectedChanceHits: z.number().nullable(),
    pValue: z.number().nullable(),
    /** Whether any figure shown comes from a synthetic (demo) population: not for casework. */
    synthetic: z.boolean(),
    /** Every population side by side and the stringency counts (null: a hit recorded before search rules). */
    figures: HitFigures.nullable(),
  })
  .meta({ id: 'HitSummary' });
export type HitSummary = z.infer<typeof HitSummary>;

/** A hit with its last decision's comments. */
export const Hit = HitSummary.extend({ comments: z.string(), updatedAt: z.iso.datetime() }).meta({ id: 'Hit' });
export type Hit = z.infer<typeof Hit>;

/** Hit lists page, sort and filter on the server (ARCHITECTURE.md "Calls"). */
export const HitListQuery = ListQuery;
export type HitListQuery = z.infer<typeof HitListQuery>;

/** One transition in a hit's history: who moved it from which state to which, when and why. */
export const HitHistoryEntry = z
  .object({
    from: z.enum(HIT_STATUSES).nullable(),
    to: z.enum(HIT_STATUSES),
    userId: Id.nullable(),
    userName: z.string(),
    at: z.iso.datetime(),
    comments: z.string(),
    notified: z.boolean(),
  })
  .meta({ id: 'HitHistoryEntry' });
export type HitHistoryEntry = z.infer<typeof HitHistoryEntry>;

/**
 * HitView (spec 2.4): the hit, the analysis and population used, per marker the profiles' genotypes
 * side by side with the pattern, formula and value — recomputed as the calculator computes them —
 * and the history. `evaluationError` says why the figures could not be recomputed (e.g. the analysis
 * was deactivated); the stored figures in `hit` stay.
 */
export const HitView = z
  .object({
    hit: Hit,
    analysis: z.object({ id: Id, name: z.string(), label: z.string(), analysisGroupId: Id, kind: z.enum(ANALYSIS_KINDS), profileKind: z.enum(PROFILE_KINDS) }),
    population: z.object({ id: Id, name: z.string(), source: z.string() }).nullable(),
    markers: z.array(MarkerResult),
    constants: z.array(z.object({ name: z.string(), notation: z.string(), value: z.number() })),
    evaluation: z
      .object({
        combinedIndex: z.number().nullable(),
        log10: z.number().nullable(),
        markerCount: z.number().int().nullable(),
        nonExclusionMarkerCount: z.number().int().nullable(),
        probability: z.string(),
        haplotypeCount: z.object({ matches: z.number().int(), total: z.number().int(), upperBound: z.number(), frequency: z.number() }).nullable(),
        /** The calculator's parentage conclusion (GENETICS.md "Parentage with inconsistencies"); null without maxInconsistencies. */
        conclusion: ParentageConclusion.nullish(),
      })
      .nullable(),
    evaluationError: z.string().nullable(),
    history: z.array(HitHistoryEntry),
    /** Whether the hit's organization reviews with four eyes: then who entered one of its profiles may not publish it. */
    fourEyesReview: z.boolean(),
  })
  .meta({ id: 'HitView' });
export type HitView = z.infer<typeof HitView>;

const comments = z.string().max(4000, 'At most 4000 characters');

/** Publish (Hits Publish): comments, and whether to e-mail the case's assigned users. */
export const PublishHitBody = z.object({ version: z.number().int().min(1), comments: comments.default(''), notify: z.boolean().default(false) });
export type PublishHitBody = z.infer<typeof PublishHitBody>;

/** Reject (Hits Publish): a reason is required. */
export const RejectHitBody = z.object({ version: z.number().int().min(1), reason: requiredText(4000) });
export type RejectHitBody = z.infer<typeof RejectHitBody>;

/** Reset (Hits Reset): back to pending, with comments. */
export const ResetHitBody = z.object({ version: z.number().int().min(1), comments: comments.default('') });
export type ResetHitBody = z.infer<typeof ResetHitBody>;

/** Weigh again (Hits Publish, issue 30): a pending identity hit's figures with the populations its rule uses now. */
export const WeighHitAgainBody = z.object({ version: z.number().int().min(1) });
export type WeighHitAgainBody = z.infer<typeof WeighHitAgainBody>;
