import { z } from 'zod';
import { Id } from './common';
import { Versioned } from './list';

// Issue 31: a kit's allele bins (dye, fragment size) and its analytical thresholds, as reference data.

/** The most an analytical threshold may be (RFU): above an instrument's saturation nothing is ever called. */
const MAX_RFU = 100_000;
const RFU_MESSAGE = 'An analytical threshold is a positive number of RFU';
/** An analytical threshold (RFU); the kit form reads its cells through it too. */
export const Rfu = z.number({ error: RFU_MESSAGE }).positive(RFU_MESSAGE).max(MAX_RFU, `At most ${MAX_RFU} RFU`);

/** A kit's analytical thresholds: one for the whole kit and, taking precedence, one per dye. */
export const KitThresholds = z.object({ kit: Rfu.nullable(), dyes: z.record(z.string().trim().min(1).max(20), Rfu) }).meta({ id: 'KitThresholds' });
export type KitThresholds = z.infer<typeof KitThresholds>;

export const UpdateKitThresholdsBody = KitThresholds.extend(Versioned.shape);
export type UpdateKitThresholdsBody = z.infer<typeof UpdateKitThresholdsBody>;

/** Every allele bin of a kit, per marker with its dye and sizing rule, and the thresholds. */
export const KitAlleles = z
  .object({
    chemistryId: Id,
    /** The chemistry's version, for a threshold change. */
    version: z.number().int(),
    markers: z.array(
      z.object({
        markerId: Id,
        marker: z.string(),
        dye: z.string(),
        /** Repeat length and offset (bp): the size of an allele without a bin is repeatLength × repeats + offset. */
        repeatLength: z.number().int(),
        sizeOffset: z.number(),
        alleles: z.array(z.object({ allele: z.string(), size: z.number(), virtual: z.boolean() })),
      }),
    ),
    thresholds: KitThresholds,
  })
  .meta({ id: 'KitAlleles' });
export type KitAlleles = z.infer<typeof KitAlleles>;
