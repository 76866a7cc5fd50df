import { z } from 'zod';
import { Id } from './common';
import { ListQuery, Versioned } from './list';
import { MARKER_KINDS, MARKER_KIND_LABELS } from './markers';
import { REQUIRED, requiredText } from './named-record';
import { ImportedReplicate, MAX_REPLICATES, Replicate, ReplicateInput } from './replicates';

/** A profile is typed with one chemistry, so its kind is the chemistry's (spec 3: YStrProfile or AutosomalProfile). */
export const PROFILE_KINDS = MARKER_KINDS;
export type ProfileKind = (typeof PROFILE_KINDS)[number];
export const PROFILE_KIND_LABELS = MARKER_KIND_LABELS;

/** ARCHITECTURE.md "States": pending → approved | rejected; approved | rejected → pending (reset). */
export const PROFILE_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ProfileStatus = (typeof PROFILE_STATUSES)[number];
export const PROFILE_STATUS_LABELS: Record<ProfileStatus, string> = { pending: 'Pending', approved: 'Approved', rejected: 'Rejected' };

/**
 * Sample types as CODIS names its specimen categories (CMF 3.2 SPECIMENCATEGORY), so a profile
 * exports to CMF and back without a mapping table.
 */
export const SAMPLE_TYPES = [
  'Forensic, Unknown',
  'Forensic Mixture',
  'Suspect, Known',
  'Victim, Known',
  'Elimination, Known',
  'Convicted Offender',
  'Arrestee',
  'Missing Person',
  'Unidentified Human (Remains)',
  'Biological Mother',
  'Biological Father',
  'Biological Child',
  'Alleged Father',
  'Alleged Mother',
  'Spouse',
  'Biological Sibling',
  'Reference',
] as const;
export type SampleType = (typeof SAMPLE_TYPES)[number];

/** Sample types that may be mixtures, so a marker may carry up to 40 alleles (GENETICS.md); references carry 1 or 2. */
export const MIXTURE_SAMPLE_TYPES: ReadonlySet<string> = new Set<SampleType>(['Forensic, Unknown', 'Forensic Mixture']);

/** Most alleles a marker may carry: a mixture up to 40 (GENETICS.md; core/alleles MAX_MIXTURE). CMF allows 8 per locus on export. */
export const MAX_ALLELES_PER_MARKER = 40;

/** One allele designation as typed or imported: kept as text (9.3, X, OL, <8), never a float. */
export const AlleleText = z.string().trim().min(1, 'An allele cannot be empty').max(20, 'At most 20 characters');

/** A marker value as stored and returned (spec 3: each marker value holds a marker with a name). */
export const MarkerValue = z
  .object({ markerId: Id, marker: z.string(), alleles: z.array(z.string()) })
  .meta({ id: 'MarkerValue' });
export type MarkerValue = z.infer<typeof MarkerValue>;

/** A marker value as a form or an import confirmation sends it. */
export const MarkerValueInput = z.object({
  markerId: Id,
  alleles: z.array(AlleleText).max(MAX_ALLELES_PER_MARKER, `At most ${MAX_ALLELES_PER_MARKER} alleles per marker, even in a mixture`),
});
export type MarkerValueInput = z.infer<typeof MarkerValueInput>;

const optionalId = Id.nullable();

/** Where a profile belongs and how it was typed: the case, kit, sample type, source, item, laboratory and comments. */
export const ProfileAssignment = z.object({
  caseId: Id,
  chemistryId: z.uuid({ error: REQUIRED }),
  sampleType: z.enum(SAMPLE_TYPES, { error: REQUIRED }),
  sampleSourceId: optionalId,
  physicalItemId: optionalId,
  /** The case's involved party the sample was taken from (issue 18); left out, an edit keeps the link unless the case changes. */
  involvedPartyId: optionalId.optional(),
  laboratoryId: optionalId,
  comments: z.string().max(4000, 'At most 4000 characters'),
});
export type ProfileAssignment = z.infer<typeof ProfileAssignment>;

/** What the profile form sends (not the markers: those have their own form). */
export const ProfileInput = ProfileAssignment.extend({ profileId: requiredText(100) });
export type ProfileInput = z.infer<typeof ProfileInput>;

export const UpdateProfileBody = ProfileInput.extend(Versioned.shape);
export type UpdateProfileBody = z.infer<typeof UpdateProfileBody>;

/** The marker entry form: every marker value of the profile at once. */
export const UpdateMarkersBody = z.object({
  markerValues: z.array(MarkerValueInput).max(200),
  /** Replaces the replicates with peak heights (issue 31) when given; left out, they stay. */
  replicates: z.array(ReplicateInput).max(MAX_REPLICATES).optional(),
  version: Versioned.shape.version,
});
export type UpdateMarkersBody = z.infer<typeof UpdateMarkersBody>;

/** One profile to add: its sample name and marker values. */
export const ProfileDraft = z.object({
  profileId: requiredText(100),
  markerValues: z.array(MarkerValueInput).max(200),
  /** Replicates with peak heights (issue 31), kept for a forensic sample type; every allele must be among the marker values. */
  replicates: z.array(ReplicateInput).max(MAX_REPLICATES).optional(),
});
export type ProfileDraft = z.infer<typeof ProfileDraft>;

/**
 * Adds profiles to a case. Entered by hand: one profile. Confirmed from an import: the parsed
 * profiles exactly as the import returned them, with the import's token in the `Approval` header;
 * `include` picks which of them to add (by index; all when absent).
 */
export const AddProfilesBody = ProfileAssignment.extend({
  profiles: z.array(ProfileDraft).min(1, 'Add at least one profile').max(5000, 'At most 5000 profiles at once'),
  include: z.array(z.number().int().min(0)).optional(),
  /** The imported file's name, recorded as the profiles' source (with an approval only). */
  importedFrom: z.string().max(255).optional(),
});
export type AddProfilesBody = z.infer<typeof AddProfilesBody>;

/** A profile as the API returns it. */
export const Profile = z
  .object({
    id: Id,
    version: z.number().int(),
    profileId: z.string(),
    kind: z.enum(PROFILE_KINDS),
    status: z.enum(PROFILE_STATUSES),
    caseId: Id,
    caseNumber: z.string(),
    organizationId: Id,
    chemistryId: Id,
    chemistryName: z.string(),
    sampleType: z.string(),
    sampleSourceId: Id.nullable(),
    sampleSourceName: z.string().nullable(),
    physicalItemId: Id.nullable(),
    physicalItemName: z.string().nullable(),
    /** The item's collection (issue 18), when the profile names an item. */
    physicalItem: z
      .object({ id: Id, itemId: z.string(), collectedAt: z.iso.datetime({ offset: true }).nullable(), collectionPlace: z.string(), collectedBy: z.string() })
      .nullable(),
    /** The involved party the sample was taken from ("Taken from"), if any; role '' for a party entered before roles. */
    involvedParty: z.object({ id: Id, title: z.string(), role: z.string(), name: z.string() }).nullable(),
    laboratoryId: Id.nullable(),
    laboratoryName: z.string().nullable(),
    comments: z.string(),
    /** How it came in: the import file's name and format, or "Entered by hand". */
    source: z.string(),
    /** The last review decision's comments: approval comments, rejection reason or reset comments. */
    reviewComments: z.string(),
    reviewedAt: z.iso.datetime().nullable(),
    reviewedBy: z.string().nullable(),
    /** Who entered it by hand or imported it, by id and name (null: unknown, before issue 18). */
    enteredById: Id.nullable(),
    enteredBy: z.string().nullable(),
    /** Whether its organization reviews with four eyes: then whoever entered it may not approve it (core/four-eyes.ts). */
    fourEyesReview: z.boolean(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Profile' });
export type Profile = z.infer<typeof Profile>;

/** One profile with its marker values in the chemistry's order (markers outside the kit last). */
export const ProfileWithMarkers = Profile.extend({
  markerValues: z.array(MarkerValue),
  /** The replicates with their peak heights and sizes (issue 31); empty when the profile has none. */
  replicates: z.array(Replicate),
}).meta({ id: 'ProfileWithMarkers' });
export type ProfileWithMarkers = z.infer<typeof ProfileWithMarkers>;

/** Profile lists: the common list query plus the status (the Review list is `status=pending`). */
export const ProfileListQuery = ListQuery.extend({ status: z.enum(PROFILE_STATUSES).optional() });
export type ProfileListQuery = z.infer<typeof ProfileListQuery>;

/** Approval (spec 4): the reviewer sends the marker values they approve and their comments. */
export const ApproveProfileBody = z.object({
  markerValues: z.array(MarkerValueInput).max(200),
  comments: z.string().max(4000, 'At most 4000 characters'),
  version: Versioned.shape.version,
});
export type ApproveProfileBody = z.infer<typeof ApproveProfileBody>;

export const RejectProfileBody = z.object({ reason: requiredText(4000), version: Versioned.shape.version });
export type RejectProfileBody = z.infer<typeof RejectProfileBody>;

export const ResetProfileBody = z.object({ comments: z.string().max(4000, 'At most 4000 characters'), version: Versioned.shape.version });
export type ResetProfileBody = z.infer<typeof ResetProfileBody>;

/** One problem of an import: the 1-based line or row (null: the whole file), the sample and marker it concerns. */
export const ImportIssue = z
  .object({ row: z.number().int().nullable(), sample: z.string().optional(), marker: z.string().optional(), message: z.string() })
  .meta({ id: 'ImportIssue' });
export type ImportIssue = z.infer<typeof ImportIssue>;

/** An allelic ladder or control run an import skipped (not a profile): its name, 1-based line and why it is one. */
export const ImportControl = z
  .object({ sampleName: z.string(), line: z.number().int().nullable(), reason: z.string() })
  .meta({ id: 'ImportControl' });
export type ImportControl = z.infer<typeof ImportControl>;

/** One parsed profile of an import, with the problems that keep it from being added. */
export const ImportedProfile = z
  .object({
    profileId: z.string(),
    kind: z.enum(PROFILE_KINDS),
    /** The kit the file names (CMF KIT), when it names one. */
    kit: z.string().nullable(),
    /** The sample type the file names (CMF SPECIMENCATEGORY), when it is one of SAMPLE_TYPES. */
    sampleType: z.enum(SAMPLE_TYPES).nullable(),
    markerValues: z.array(MarkerValue),
    /** The runs with their peak heights and sizes, when the file gives heights (issue 31); marker values are their union. */
    replicates: z.array(ImportedReplicate).optional(),
    errors: z.array(z.string()),
  })
  .meta({ id: 'ImportedProfile' });
export type ImportedProfile = z.infer<typeof ImportedProfile>;

/** The body of `POST …/profiles/import`; the `Approval-Token` response header carries the token to send back. */
export const ProfileImportResult = z
  .object({
    fileName: z.string(),
    format: z.string(),
    profiles: z.array(ImportedProfile),
    errors: z.array(ImportIssue),
    warnings: z.array(ImportIssue),
    /** The chemistry of that kind whose markers cover the imported ones best, if any. */
    suggestedChemistryId: Id.nullable(),
    /** When the token stops being accepted. */
    approvalExpiresAt: z.iso.datetime(),
    /** The import job holding these profiles (`/profile-imports/{importId}`): page, confirm or discard it there too. */
    importId: Id,
    /** Allelic ladders and controls set apart from the profiles. */
    controls: z.array(ImportControl),
  })
  .meta({ id: 'ProfileImportResult' });
export type ProfileImportResult = z.infer<typeof ProfileImportResult>;

/** Response header carrying the approval token of an import; request header sending it back (ARCHITECTURE.md). */
export const APPROVAL_TOKEN_HEADER = 'Approval-Token';
export const APPROVAL_HEADER = 'Approval';

/** Why an approval was refused (400 `details.approval`), so the import screen can offer to parse again. */
export const APPROVAL_REFUSALS = ['expired', 'mismatch', 'foreign', 'invalid', 'used', 'case'] as const;
export type ApprovalRefusal = (typeof APPROVAL_REFUSALS)[number];
