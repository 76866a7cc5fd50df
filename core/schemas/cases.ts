import { z } from 'zod';
import { Id } from './common';
import { Versioned } from './list';
import { REQUIRED, requiredText } from './named-record';

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

/** Involved party form (spec 3 InvolvedParty: title). */
export const InvolvedPartyInput = z.object({ title: requiredText(200), description: z.string().max(4000, 'At most 4000 characters') });
export type InvolvedPartyInput = z.infer<typeof InvolvedPartyInput>;
export const UpdateInvolvedPartyBody = InvolvedPartyInput.extend(Versioned.shape);

export const InvolvedParty = z
  .object({ id: Id, version: z.number().int(), caseId: Id, title: z.string(), description: z.string(), createdAt: z.iso.datetime() })
  .meta({ id: 'InvolvedParty' });
export type InvolvedParty = z.infer<typeof InvolvedParty>;

/** Physical item form (spec 3 PhysicalItem: itemId, description). */
export const PhysicalItemInput = z.object({ itemId: requiredText(100), description: z.string().max(4000, 'At most 4000 characters') });
export type PhysicalItemInput = z.infer<typeof PhysicalItemInput>;
export const UpdatePhysicalItemBody = PhysicalItemInput.extend(Versioned.shape);

export const PhysicalItem = z
  .object({ id: Id, version: z.number().int(), caseId: Id, itemId: z.string(), description: z.string(), createdAt: z.iso.datetime() })
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
