import { z } from 'zod';
import { IDENTIFIER_KINDS } from '../identifier-kinds';
import { PARTY_ROLES } from '../party-roles';
import { Id } from './common';
import { Versioned } from './list';
import { REQUIRED, requiredChoice, requiredText } from './named-record';

/** Case settings (ChangeSettings): a closed case keeps its records but takes no new profiles. */
export const CASE_STATUSES = ['Open', 'Closed'] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];

/** Shown when a profile is added to a closed case. */
export const CASE_CLOSED_MESSAGE = 'This case is closed; reopen it in the case settings to add profiles.';

/** What the case form sends (spec 2.8 CaseEdit: case type, organization, assigned users). */
export const CaseInput = z.object({
  caseNumber: requiredText(100),
  caseTypeId: z.uuid({ error: REQUIRED }),
  organizationId: z.uuid({ error: REQUIRED }),
  assignedUserIds: z.array(Id).max(200),
});
export type CaseInput = z.infer<typeof CaseInput>;

export const UpdateCaseBody = CaseInput.extend(Versioned.shape);
export type UpdateCaseBody = z.infer<typeof UpdateCaseBody>;

/** The settings tab. */
export const CaseSettingsInput = z.object({
  status: z.enum(CASE_STATUSES, { error: REQUIRED }),
  notes: z.string().max(10_000, 'At most 10000 characters'),
  version: Versioned.shape.version,
});
export type CaseSettingsInput = z.infer<typeof CaseSettingsInput>;

/** A user as a case lists them. */
export const CaseUser = z.object({ id: Id, name: z.string(), email: z.string() }).meta({ id: 'CaseUser' });
export type CaseUser = z.infer<typeof CaseUser>;

/** A case as the API returns it (spec 3 Case). */
export const Case = z
  .object({
    id: Id,
    version: z.number().int(),
    caseNumber: z.string(),
    caseTypeId: Id,
    caseTypeName: z.string(),
    organizationId: Id,
    organizationName: z.string(),
    assignedUsers: z.array(CaseUser),
    status: z.enum(CASE_STATUSES),
    notes: z.string(),
    profileCount: z.number().int(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Case' });
export type Case = z.infer<typeof Case>;

/** One identifier an agency gives a person (issue 18): its kind and the value as written. */
export const PartyIdentifier = z
  .object({ kind: requiredChoice(IDENTIFIER_KINDS, 'Unknown identifier kind'), value: requiredText(100) })
  .meta({ id: 'PartyIdentifier' });
export type PartyIdentifier = z.infer<typeof PartyIdentifier>;

/** Most identifiers one party carries. */
export const MAX_PARTY_IDENTIFIERS = 10;

/** Involved party form (spec 3 InvolvedParty; issue 18: role, name and identifiers). */
export const InvolvedPartyInput = z.object({
  title: requiredText(200),
  role: requiredChoice(PARTY_ROLES, 'Unknown role'),
  /** '' when not known (an unidentified body). */
  name: z.string().trim().max(200, 'At most 200 characters'),
  identifiers: z.array(PartyIdentifier).max(MAX_PARTY_IDENTIFIERS, `At most ${MAX_PARTY_IDENTIFIERS} identifiers`),
  description: z.string().max(4000, 'At most 4000 characters'),
});
export type InvolvedPartyInput = z.infer<typeof InvolvedPartyInput>;
export const UpdateInvolvedPartyBody = InvolvedPartyInput.extend(Versioned.shape);

/** A profile taken from a party, as the party lists it. */
export const LinkedProfile = z.object({ id: Id, profileId: z.string() }).meta({ id: 'LinkedProfile' });
export type LinkedProfile = z.infer<typeof LinkedProfile>;

export const InvolvedParty = z
  .object({
    id: Id,
    version: z.number().int(),
    caseId: Id,
    title: z.string(),
    /** '' for a party entered before roles. */
    role: z.union([z.enum(PARTY_ROLES), z.literal('')]),
    name: z.string(),
    identifiers: z.array(z.object({ kind: z.string(), value: z.string() })),
    description: z.string(),
    /** The profiles whose sample was taken from this party (profiles.involved_party_id). */
    linkedProfiles: z.array(LinkedProfile),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'InvolvedParty' });
export type InvolvedParty = z.infer<typeof InvolvedParty>;

/** Clock skew allowed before a collection time counts as "in the future". */
const COLLECTION_SKEW_MS = 5 * 60_000;
const FUTURE = 'Cannot be in the future';

/** Physical item as the API takes it (spec 3 PhysicalItem; issue 18: when, where and by whom it was collected). */
export const PhysicalItemInput = z.object({
  itemId: requiredText(100),
  description: z.string().max(4000, 'At most 4000 characters'),
  /** An instant with its offset (the form sends the local date, and time when known, this way); null when not known. */
  collectedAt: z.iso
    .datetime({ offset: true, error: 'A date and time with its offset, e.g. 2026-03-01T14:30:00+01:00' })
    .refine((v) => Date.parse(v) <= Date.now() + COLLECTION_SKEW_MS, FUTURE)
    .nullable(),
  collectionPlace: z.string().trim().max(500, 'At most 500 characters'),
  collectedBy: z.string().trim().max(200, 'At most 200 characters'),
});
export type PhysicalItemInput = z.infer<typeof PhysicalItemInput>;
export const UpdatePhysicalItemBody = PhysicalItemInput.extend(Versioned.shape);

/**
 * The item form: the collection as a local date and an optional local time ('' when not known).
 * src/cases turns it into PhysicalItemInput's instant.
 */
export const PhysicalItemFormInput = PhysicalItemInput.omit({ collectedAt: true })
  .extend({
    collectedDate: z.union([z.literal(''), z.iso.date({ error: 'A date, e.g. 2026-03-01' })]),
    collectedTime: z.union([z.literal(''), z.iso.time({ precision: -1, error: 'A time, e.g. 14:30' })]),
  })
  .superRefine((v, ctx) => {
    if (v.collectedTime && !v.collectedDate) ctx.addIssue({ code: 'custom', path: ['collectedDate'], message: 'Enter the date of this time' });
    // A local date and time read as local (no offset), as the person typed them.
    if (v.collectedDate && new Date(`${v.collectedDate}T${v.collectedTime || '00:00'}`).getTime() > Date.now() + COLLECTION_SKEW_MS) {
      ctx.addIssue({ code: 'custom', path: ['collectedDate'], message: FUTURE });
    }
  });
export type PhysicalItemFormInput = z.infer<typeof PhysicalItemFormInput>;

export const PhysicalItem = z
  .object({
    id: Id,
    version: z.number().int(),
    caseId: Id,
    itemId: z.string(),
    description: z.string(),
    collectedAt: z.iso.datetime({ offset: true }).nullable(),
    collectionPlace: z.string(),
    collectedBy: z.string(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'PhysicalItem' });
export type PhysicalItem = z.infer<typeof PhysicalItem>;

/** Largest agency file accepted (413 above it). */
export const MAX_AGENCY_FILE_BYTES = 20 * 1024 * 1024;

export const AgencyFile = z
  .object({
    id: Id,
    caseId: Id,
    fileName: z.string(),
    contentType: z.string(),
    fileSize: z.number().int(),
    uploadedBy: z.string().nullable(),
    uploadedAt: z.iso.datetime(),
  })
  .meta({ id: 'AgencyFile' });
export type AgencyFile = z.infer<typeof AgencyFile>;
