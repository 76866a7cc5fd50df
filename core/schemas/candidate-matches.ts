import { z } from 'zod';
import { Id } from './common';
import { MATCH_KINDS, StringencyFigures } from './hit-figures';

/** A candidate match's decision at the laboratory (issue 32): waiting, confirmed, or rejected with a reason. */
export const CANDIDATE_MATCH_STATUSES = ['pending', 'confirmed', 'rejected'] as const;
export const CandidateMatchStatus = z.enum(CANDIDATE_MATCH_STATUSES);
export type CandidateMatchStatus = z.infer<typeof CandidateMatchStatus>;

/** The other side of a match as the laboratory may see it (as CODIS): its specimen id, laboratory and instance, never its genotype. */
export const CandidateMatchCounterpart = z.object({ specimenId: z.string(), laboratory: z.string(), instance: z.string() }).meta({ id: 'CandidateMatchCounterpart' });
export type CandidateMatchCounterpart = z.infer<typeof CandidateMatchCounterpart>;

/** One population's statistics of the match at the upper level: the LR and the match probability as the hit shows it. */
export const CandidateMatchStatistic = z
  .object({ population: z.string().nullable(), combinedIndex: z.number().nullable(), probability: z.string(), reported: z.boolean() })
  .meta({ id: 'CandidateMatchStatistic' });
export type CandidateMatchStatistic = z.infer<typeof CandidateMatchStatistic>;

/** What the upper level found: the other side, the analysis and its stringency, the statistics, and when. */
const Findings = z.object({
  counterparts: z.array(CandidateMatchCounterpart),
  analysis: z.string(),
  matchKind: z.enum(MATCH_KINDS),
  stringency: StringencyFigures.nullable(),
  statistics: z.array(CandidateMatchStatistic),
  foundAt: z.iso.datetime(),
});

/**
 * A candidate match as the upper level sends it down to one laboratory (GET /api/network/candidate-matches): the
 * laboratory's own profile (its id there), the other side's specimen id, laboratory and instance, the analysis and its
 * stringency, and the statistics. Nothing else of the other laboratory travels.
 */
export const CandidateMatchNotice = Findings.extend({
  id: Id,
  /** The laboratory's profile, by its id at the lower instance (the upload's origin). */
  profileId: Id,
  specimenId: z.string(),
  laboratory: z.string(),
}).meta({ id: 'CandidateMatchNotice' });
export type CandidateMatchNotice = z.infer<typeof CandidateMatchNotice>;

export const CandidateMatchNotices = z.object({ items: z.array(CandidateMatchNotice) }).meta({ id: 'CandidateMatchNotices' });
export type CandidateMatchNotices = z.infer<typeof CandidateMatchNotices>;

/** POST /api/network/candidate-matches/received: the notices the lower instance stored; they are not sent again. */
export const CandidateMatchesReceived = z.object({ ids: z.array(Id).min(1).max(500) }).meta({ id: 'CandidateMatchesReceived' });

/** A candidate match at the laboratory (Casework → Candidate matches): the notice, its own profile here, and its decision. */
export const CandidateMatch = Findings.extend({
  id: Id,
  version: z.number().int(),
  organizationId: Id,
  profileId: Id,
  sampleName: z.string(),
  caseId: Id,
  caseNumber: z.string(),
  upperInstance: z.string(),
  receivedAt: z.iso.datetime(),
  status: CandidateMatchStatus,
  reason: z.string().nullable(),
  decidedBy: z.string().nullable(),
  decidedAt: z.iso.datetime().nullable(),
}).meta({ id: 'CandidateMatch' });
export type CandidateMatch = z.infer<typeof CandidateMatch>;

export const CandidateMatchList = z.object({ items: z.array(CandidateMatch) }).meta({ id: 'CandidateMatchList' });

/** The list: one organization's (or every one reached), all decisions by default, pending first. */
export const CandidateMatchQuery = z.object({
  organizationId: z.union([Id, z.literal('all')]),
  status: CandidateMatchStatus.optional(),
});

/** Confirming carries the match's version (a stale one is a 409); rejecting also its reason, which the upper level records. */
export const ConfirmCandidateBody = z.object({ version: z.number().int().min(0) });
export const RejectCandidateBody = z.object({
  reason: z.string().trim().min(1, 'Say why the match is rejected').max(2000, 'At most 2000 characters'),
  version: z.number().int().min(0),
});

/** A decision as it travels up in the upload outbox (the batch entry's `decision`). */
export const CandidateDecision = z.object({ candidateMatchId: Id, status: z.enum(['confirmed', 'rejected']), reason: z.string().max(2000).nullable() });
export type CandidateDecision = z.infer<typeof CandidateDecision>;
