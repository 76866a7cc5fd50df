import { z } from 'zod';
import { Versioned } from './list';

/** An organization's review settings (issue 18): four-eyes review of profiles and hits, on by default. */
export const ReviewSettings = z
  .object({
    /** Who entered or imported a profile may not approve it, nor publish a hit resting on it. */
    fourEyesReview: z.boolean(),
    /** The organization's version: a change sends the one read (stale → 409). */
    version: z.number().int(),
  })
  .meta({ id: 'ReviewSettings' });
export type ReviewSettings = z.infer<typeof ReviewSettings>;

/** Turning four-eyes review on or off, with the organization's version read. */
export const ReviewSettingsInput = z.object({ fourEyesReview: z.boolean(), version: Versioned.shape.version });
export type ReviewSettingsInput = z.infer<typeof ReviewSettingsInput>;
