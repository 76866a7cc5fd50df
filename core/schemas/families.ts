import { z } from 'zod';
import { Id } from './common';
import { Versioned } from './list';
import { requiredText } from './named-record';

/** draft: being assembled; active: searched and searching; inactive: kept, no longer searched (issue 16). */
export const FAMILY_STATUSES = ['draft', 'active', 'inactive'] as const;
export type FamilyStatus = (typeof FAMILY_STATUSES)[number];

/** What the family form sends: the pedigree analysis, a profile of the case for each relative's role, how to weigh it. */
export const FamilyInput = z.object({
  name: requiredText(),
  analysisId: Id,
  /** Each role of the analysis but the missing person, once, with a profile of the case. */
  relatives: z.array(z.object({ role: requiredText(60), profileId: Id })).min(1, 'Place a profile for each relative').max(10),
  populationIds: z.array(Id).min(1, 'Choose at least one population').max(10, 'At most 10 populations'),
  /** The LR a remains profile must reach in every population to become a pending hit. */
  threshold: z.number({ error: 'Required' }).finite().gt(0, 'Must be above 0'),
});
export type FamilyInput = z.infer<typeof FamilyInput>;
export const UpdateFamilyBody = FamilyInput.extend(Versioned.shape);

export const Family = z
  .object({
    id: Id,
    caseId: Id,
    organizationId: Id,
    name: z.string(),
    analysisId: Id,
    analysisName: z.string(),
    /** The missing person's role (the analysis's tested person). */
    missingPersonRole: z.string(),
    relatives: z.array(z.object({ role: z.string(), profileId: Id, sampleName: z.string().nullable(), status: z.string().nullable() })),
    populationIds: z.array(Id),
    threshold: z.number(),
    status: z.enum(FAMILY_STATUSES),
    activatedAt: z.iso.datetime().nullable(),
    searchedAt: z.iso.datetime().nullable(),
    hitCount: z.number().int(),
    version: z.number().int(),
  })
  .meta({ id: 'Family' });
export type Family = z.infer<typeof Family>;

/** What activating a family answers: the family, how many remains profiles were searched and how many hits it added. */
export const FamilySearchAnswer = z
  .object({ family: Family, searchedProfiles: z.number().int(), hitsAdded: z.number().int() })
  .meta({ id: 'FamilySearchAnswer' });
export type FamilySearchAnswer = z.infer<typeof FamilySearchAnswer>;
