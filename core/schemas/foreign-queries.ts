import { z } from 'zod';
import { Id } from './common';
import { AlleleText, MAX_ALLELES_PER_MARKER } from './profiles';

/** The stringencies a foreign query's hit is reported at, strongest first (identity only: GENETICS.md "Database search"). */
export const FOREIGN_QUERY_STRINGENCIES = ['high', 'moderate'] as const;
export const ForeignQueryStringency = z.enum(FOREIGN_QUERY_STRINGENCIES);

const Text = (what: string, max = 100) => z.string().trim().min(1, `Give the ${what}`).max(max, `At most ${max} characters`);

/**
 * What a foreign instance sends (issue 32, Prüm II): its reference, who asks, the kit and the marker values by marker
 * name (another instance does not know this one's ids; names and aliases resolve as in a profile import).
 */
export const ForeignQueryBody = z.object({
  reference: Text('query’s reference'),
  requestingCountry: Text('requesting country', 60),
  requestingInstance: Text('requesting instance’s name'),
  kit: Text('kit (chemistry) name'),
  markerValues: z
    .array(
      z.object({
        marker: Text('marker name'),
        alleles: z.array(AlleleText).min(1, 'Give at least one allele').max(MAX_ALLELES_PER_MARKER, `At most ${MAX_ALLELES_PER_MARKER} alleles per marker`),
      }),
    )
    .min(1, 'Send at least one marker')
    .max(200, 'At most 200 markers'),
});
export type ForeignQueryBody = z.infer<typeof ForeignQueryBody>;

/** A release request's decision (issue 32): waiting, released to the sender, or refused with a reason. */
export const RELEASE_STATUSES = ['pending', 'released', 'refused'] as const;
export const ReleaseStatus = z.enum(RELEASE_STATUSES);
export type ReleaseStatus = z.infer<typeof ReleaseStatus>;

/** A released profile, as the sender may fetch it: the specimen id, the laboratory and the genotypes, nothing else. */
export const ReleasedProfile = z.object({
  specimenId: z.string(),
  laboratory: z.string(),
  kit: z.string(),
  markerValues: z.array(z.object({ marker: z.string(), alleles: z.array(z.string()) })),
});

/** One candidate of a hit as the sender sees it: its decision, and its data only once released. */
export const ForeignQueryMatch = z.object({
  status: ReleaseStatus,
  /** Why it was refused; null otherwise. */
  reason: z.string().nullable(),
  profile: ReleasedProfile.nullable(),
});

/**
 * The answer to a foreign query: hit / no hit, the strongest stringency met and how many candidates met it; no ids,
 * names or genotypes until a person here releases a candidate. `status` sums the candidates' decisions up.
 */
export const ForeignQueryAnswer = z
  .object({
    id: Id,
    reference: z.string(),
    hit: z.boolean(),
    stringency: ForeignQueryStringency.nullable(),
    candidateCount: z.number().int(),
    status: z.enum(['no-hit', 'pending', 'released', 'refused']),
    matches: z.array(ForeignQueryMatch),
  })
  .meta({ id: 'ForeignQueryAnswer' });
export type ForeignQueryAnswer = z.infer<typeof ForeignQueryAnswer>;

/** A release request as the answering laboratory reviews it (its own profile named in full). */
export const ReleaseRequest = z
  .object({
    id: Id,
    version: z.number().int(),
    reference: z.string(),
    requestingCountry: z.string(),
    requestingInstance: z.string(),
    receivedAt: z.string(),
    stringency: ForeignQueryStringency,
    candidateCount: z.number().int(),
    profileId: Id,
    sampleName: z.string(),
    caseId: Id,
    caseNumber: z.string(),
    organizationId: Id,
    status: ReleaseStatus,
    reason: z.string().nullable(),
    decidedAt: z.string().nullable(),
  })
  .meta({ id: 'ReleaseRequest' });
export type ReleaseRequest = z.infer<typeof ReleaseRequest>;

/** The holding laboratory's list (GET network/release-requests). */
export const ReleaseRequestList = z.object({ items: z.array(ReleaseRequest) });

/** Whose requests (an organization, or `all` the user reaches) and which decision. */
export const ReleaseRequestQuery = z.object({
  organizationId: z.union([Id, z.literal('all')]),
  status: ReleaseStatus.default('pending'),
});

/** Releasing carries the request's version (a stale one is a 409); refusing also its reason, which the sender is told. */
export const ReleaseBody = z.object({ version: z.number().int().min(0) });
export const RefuseBody = z.object({
  reason: z.string().trim().min(1, 'Say why the data are not released').max(2000, 'At most 2000 characters'),
  version: z.number().int().min(0),
});
