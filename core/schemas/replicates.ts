import { z } from 'zod';
import { Id } from './common';

// Issue 31 "Heights are data": a forensic profile keeps, per replicate (one run of the extract), marker and
// allele, the peak height in RFU and the fragment size in bp. The profile's marker values (what searches read)
// stay the union of its replicates' alleles; heights never enter the search index.

/** The most replicates (runs of one extract) a profile keeps. */
export const MAX_REPLICATES = 16;
/** Heights and sizes are stored as 32-bit floats (server/db/peaks-codec.ts): six significant digits round-trip. */
export const PEAK_DIGITS = 6;

/** A positive height (RFU) or size (bp); null when not given. */
const Measure = z.number().positive('A peak height or size is a positive number').max(1e6).nullable();

/** One allele of a replicate as entered or imported: its height and, where the file gives it, its size. */
export const PeakInput = z.object({ allele: z.string().trim().min(1).max(20), height: Measure, size: Measure });
export type PeakInput = z.infer<typeof PeakInput>;

/** One replicate as entered or imported: a name (the run, e.g. GeneMapper's Sample File) and its peaks per marker. */
export const ReplicateInput = z.object({
  name: z.string().trim().max(200),
  markers: z.array(z.object({ markerId: Id, peaks: z.array(PeakInput).max(40) })).max(200),
});
export type ReplicateInput = z.infer<typeof ReplicateInput>;

/** Where a peak's size comes from: the file (or hand entry), the kit's allele table, or nowhere. */
export const SIZE_SOURCES = ['file', 'kit', 'none'] as const;

/** A stored peak as the API returns it: flagged when under the kit's analytical threshold, its size filled from the kit when the file gave none. */
export const Peak = z
  .object({
    allele: z.string(),
    height: z.number().nullable(),
    size: z.number().nullable(),
    sizeSource: z.enum(SIZE_SOURCES),
    /** Under the analytical threshold of the kit (or the marker's dye): kept, flagged. */
    belowThreshold: z.boolean(),
  })
  .meta({ id: 'Peak' });
export type Peak = z.infer<typeof Peak>;

/** A replicate as the profile read returns it. */
export const Replicate = z
  .object({
    name: z.string(),
    markers: z.array(z.object({ markerId: Id, marker: z.string(), peaks: z.array(Peak), note: z.string().optional() })),
  })
  .meta({ id: 'Replicate' });
export type Replicate = z.infer<typeof Replicate>;

/** A replicate of an import's preview: its peaks as the file gave them (marker names for the screen). */
export const ImportedReplicate = z
  .object({
    name: z.string(),
    markers: z.array(z.object({ markerId: Id, marker: z.string(), peaks: z.array(PeakInput) })),
  })
  .meta({ id: 'ImportedReplicate' });
export type ImportedReplicate = z.infer<typeof ImportedReplicate>;

/** Response header of a CMF download saying what the file leaves out (issue 31: CMF has no peak heights). */
export const CMF_NOTICE_HEADER = 'Locus-Notice';

/** What a CMF export of a profile with heights says: the heights stay in Locus and in its CSV export. */
export function cmfHeightsNotice(replicates: number, peaks: number): string {
  return `CODIS CMF 3.2 has no peak heights: this export leaves out the ${peaks} peak height${peaks === 1 ? '' : 's'} of ${replicates} replicate${replicates === 1 ? '' : 's'}; the CSV export keeps them.`;
}
