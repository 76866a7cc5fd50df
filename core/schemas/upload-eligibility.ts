import { z } from 'zod';
import { CODIS_CORE_LOCI } from '../network/codis-core-loci';
import { Id } from './common';
import { REQUIRED } from './named-record';
import { MAX_ALLELES_PER_MARKER, SAMPLE_TYPES } from './profiles';

const CORE_COUNT = CODIS_CORE_LOCI.length;

/** One index's editable rules as the form sends them, with the version the editor read (409 when stale). */
export const UploadEligibilityIndexInput = z.object({
  id: Id,
  version: z.number().int().min(1),
  sampleTypes: z.array(z.enum(SAMPLE_TYPES, { error: 'Unknown sample type' })),
  minCoreLoci: z.number({ error: REQUIRED }).int('A whole number').min(0, 'At least 0').max(CORE_COUNT, `At most ${CORE_COUNT} (the CODIS core loci)`),
  maxAllelesPerLocus: z.number({ error: REQUIRED }).int('A whole number').min(1, 'At least 1').max(MAX_ALLELES_PER_MARKER, `At most ${MAX_ALLELES_PER_MARKER}`),
  /** "1 in N": a profile's match probability must be under 1/N; null: no rarity threshold. */
  rarityOneIn: z.number().min(1, 'At least 1 (a match probability of at most 1)').max(1e30, 'At most 10³⁰').nullable(),
});
export type UploadEligibilityIndexInput = z.infer<typeof UploadEligibilityIndexInput>;

/**
 * The whole rule set as one write: every index with its version. A sample type belongs to one index at most, so
 * "the minimum core loci of a sample type" has one answer.
 */
export const UploadEligibilityRulesUpdate = z
  .object({ indexes: z.array(UploadEligibilityIndexInput).min(1, 'At least one index') })
  .superRefine(({ indexes }, ctx) => {
    const seen = new Set<string>();
    indexes.forEach((index, i) => {
      for (const type of index.sampleTypes) {
        if (seen.has(type)) ctx.addIssue({ code: 'custom', path: ['indexes', i, 'sampleTypes'], message: `${type} is already in another index: a sample type is uploaded to one index` });
        seen.add(type);
      }
    });
  });
export type UploadEligibilityRulesUpdate = z.infer<typeof UploadEligibilityRulesUpdate>;

/** An index's rules as stored. */
export const UploadEligibilityIndex = UploadEligibilityIndexInput.extend({ name: z.string(), updatedAt: z.iso.datetime() }).meta({ id: 'UploadEligibilityIndex' });
export type UploadEligibilityIndex = z.infer<typeof UploadEligibilityIndex>;

/** The level's upload rules: its indexes in display order and the core loci they count. */
export const UploadEligibilityRules = z
  .object({ coreLoci: z.array(z.string()), indexes: z.array(UploadEligibilityIndex) })
  .meta({ id: 'UploadEligibilityRules' });
export type UploadEligibilityRules = z.infer<typeof UploadEligibilityRules>;

/** Whether one profile may be uploaded to the upper level, and why not. */
export const ProfileUploadEligibility = z
  .object({
    eligible: z.boolean(),
    index: z.string().nullable(),
    reasons: z.array(z.string()),
    /** The figure the rarity threshold was compared with (moderate stringency, the most common of the organization's populations). */
    matchProbability: z.number().nullable(),
    /** Whether this instance names an upper instance (its network settings): without one nothing is uploaded, and the profile page shows no verdict. */
    upperInstance: z.boolean(),
  })
  .meta({ id: 'ProfileUploadEligibility' });
export type ProfileUploadEligibility = z.infer<typeof ProfileUploadEligibility>;
